import { and, desc, eq, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../../db/client.ts';
import { orders, testimonials, users } from '../../../db/schema/index.ts';
import { notFound } from '../lib/errors.ts';
import type { Testimonial, TestimonialStats } from '@common/schemas/testimonials.ts';
import { testimonialStats } from '@common/testimonial-stats.ts';
import type { NewTestimonial } from '@common/schemas/commerce.ts';


export type { Testimonial, TestimonialStats } from '@common/schemas/testimonials.ts';

type TestimonialRow = typeof testimonials.$inferSelect;

function toTestimonial(row: TestimonialRow): Testimonial {
  return {
    id: row.id,
    customerName: row.customerName,
    customerImage: row.customerImage,
    rating: row.rating,
    comment: row.comment,
    carPurchased: row.carPurchased,
    date: row.createdAt.toISOString(),
    verified: row.verified,
    location: row.location,
    purchaseAmount: row.purchaseAmount,
  };
}

export { testimonialStats } from '@common/testimonial-stats.ts';

export class TestimonialsService {
  constructor(private readonly db: Database) {}

  async list(): Promise<{ testimonials: Testimonial[]; stats: TestimonialStats }> {
    const rows = await this.db.select().from(testimonials).orderBy(desc(testimonials.createdAt), desc(testimonials.id));
    return { testimonials: rows.map(toTestimonial), stats: testimonialStats(rows) };
  }

  /**
   * Only the server decides `verified`: true when the author has completed a purchase here
   * (an escrow order released to the seller), whose car and amount then back the testimonial.
   */
  async create(authorId: number, input: NewTestimonial): Promise<Testimonial> {
    const [author] = await this.db.select().from(users).where(eq(users.id, authorId));
    if (!author) throw notFound('User not found');
    const [completed] = await this.db
      .select({ amount: orders.amount })
      .from(orders)
      .where(and(eq(orders.buyerId, authorId), eq(orders.status, 'released')))
      .orderBy(desc(orders.updatedAt))
      .limit(1);
    const [row] = await this.db
      .insert(testimonials)
      .values({
        userId: authorId,
        customerName: author.name,
        customerImage: author.avatar,
        rating: input.rating,
        comment: input.comment.trim(),
        carPurchased: input.carPurchased?.trim() || null,
        location: input.location?.trim() || author.location,
        purchaseAmount: completed?.amount ?? null,
        verified: completed !== undefined,
      })
      .returning();
    return toTestimonial(row!);
  }
}

/**
 * A completed purchase backs the buyer's testimonials: those not yet verified become verified,
 * keeping the car and amount their author gave, else taking the purchase's. In the sale's transaction.
 */
export async function verifyPurchaseTestimonials(tx: Executor, purchase: { buyerId: number; amount: number; carTitle: string }): Promise<void> {
  await tx
    .update(testimonials)
    .set({ verified: true, purchaseAmount: sql`coalesce(${testimonials.purchaseAmount}, ${purchase.amount})`, carPurchased: sql`coalesce(${testimonials.carPurchased}, ${purchase.carTitle})` })
    .where(and(eq(testimonials.userId, purchase.buyerId), eq(testimonials.verified, false)));
}
