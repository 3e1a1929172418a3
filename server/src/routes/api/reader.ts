import type { FastifyRequest } from 'fastify';
import { isStaff } from '@common/back-office.ts';
import type { Reader } from '../../services/discussion/read-model.ts';

/** Who is reading a discussion: signed out, a user, or staff (who see held and removed messages too). */
export const readerOf = (request: FastifyRequest): Reader => (request.session ? { userId: request.session.userId, isStaff: isStaff(request.session.role) } : null);
