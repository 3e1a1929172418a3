import { useId, useState } from 'react';
import { USER_ROLES, type UserRole } from '@common/back-office.ts';
import { ChangeRoleSchema } from '@common/schemas/admin.ts';
import { issuesByField } from '@common/validation.ts';
import { SelectField, TextField } from '../../../components/ui/form-field.tsx';
import { SearchIcon } from '../../../components/ui/icons.tsx';
import { formatDate } from '../../../lib/relative-time.ts';
import { actOnUser, changeRole, searchUsers, type AdminUser, type UserAction } from '../api/admin-api.ts';
import { useConsoleResource } from '../hooks/console-access.ts';
import { ROLE_LABELS } from '../lib/format.ts';
import { ReasonDialog, type MoveWords } from './reason-dialog.tsx';
import { ConsoleSection, ConsoleStatus, FilterForm, LoadedList, MoveButton, type SectionProps } from './section-parts.tsx';
import { TableFrame, type Column } from './table-frame.tsx';
import './users-section.css';

type Move = UserAction | 'role';

const MOVES: Record<Move, MoveWords & { description: (u: AdminUser) => string; done: (u: AdminUser) => string }> = {
  suspend: {
    button: 'Suspend',
    title: 'Suspend this account?',
    confirm: 'Suspend Account',
    busy: 'Suspending...',
    danger: true,
    description: (u) => `${u.name} is signed out everywhere at once and cannot sign in again; their listings leave the marketplace until the account is unsuspended.`,
    done: (u) => `${u.name} is suspended.`,
  },
  unsuspend: {
    button: 'Unsuspend',
    title: 'Unsuspend this account?',
    confirm: 'Unsuspend Account',
    busy: 'Unsuspending...',
    danger: false,
    description: (u) => `${u.name} can sign in again and their listings return.`,
    done: (u) => `${u.name} can sign in again.`,
  },
  'verify-seller': {
    button: 'Verify Seller',
    title: 'Verify this seller?',
    confirm: 'Verify Seller',
    busy: 'Verifying...',
    danger: false,
    description: (u) => `Every listing of ${u.name} shows the Verified seller badge from now on.`,
    done: (u) => `${u.name} is a verified seller.`,
  },
  role: {
    button: 'Change Role',
    title: 'Change this account’s role?',
    confirm: 'Change Role',
    busy: 'Changing...',
    danger: true,
    description: (u) => `${u.name} is signed out everywhere; staff roles reach this console (after two-factor sign-in).`,
    done: (u) => `${u.name}’s role is changed.`,
  },
};

const COLUMNS: Column[] = ['Account', 'Role', 'Status', { label: 'Actions', hidden: true }];
const ROLE_OPTIONS = USER_ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] }));

/** Accounts found by name or email; suspend, unsuspend, verify as a seller, and (admins) change roles. */
export function UsersSection({ titleId, user: me }: SectionProps) {
  const searchId = useId();
  const roleId = useId();
  const [query, setQuery] = useState('');
  const [search, setSearch] = useState('');
  const { resource, retry } = useConsoleResource(`admin:users:${search}`, (signal) => searchUsers(search, signal));
  const [acting, setActing] = useState<{ user: AdminUser; move: Move } | null>(null);
  const [role, setRole] = useState<UserRole>('user');
  const [done, setDone] = useState<string | null>(null);
  const isAdmin = me.role === 'admin';

  function submit() {
    const next = query.trim();
    if (next === search) retry();
    else setSearch(next);
  }

  function open(user: AdminUser, move: Move) {
    setDone(null);
    setRole(user.role);
    setActing({ user, move });
  }

  const moveOf = acting ? MOVES[acting.move] : null;

  return (
    <ConsoleSection section="users" titleId={titleId}>

      <FilterForm label="Users" onApply={submit} search>
        <TextField id={searchId} label="Name or email" type="search" value={query} onChange={setQuery} autoComplete="off" spellCheck={false} maxLength={200} />
        <button type="submit" className="btn btn--dark">
          <SearchIcon size={18} />
          Search
        </button>
      </FilterForm>

      <ConsoleStatus>{done}</ConsoleStatus>

      <LoadedList
        resource={resource}
        retry={retry}
        label="Looking for accounts..."
        empty={{ title: 'No accounts found', text: search ? `Nobody’s name or email matches “${search}”.` : 'There are no accounts yet.' }}
      >
        {(users) => (
          <TableFrame caption={search ? `Accounts matching “${search}”: ${users.length}` : `Accounts: ${users.length}`} columns={COLUMNS} testId="users-table">
            {users.map((user) => (
              <tr key={user.id} data-testid="user-row" data-user-id={user.id}>
                <th scope="row" className="users-table__who">
                  {user.name}
                  <span className="console-table__sub">{user.email}</span>
                  <span className="console-table__sub">
                    #{user.id} · joined <time dateTime={user.createdAt}>{formatDate(user.createdAt)}</time>
                  </span>
                </th>
                <td>{user.role === 'user' ? ROLE_LABELS.user : <span className="tag">{ROLE_LABELS[user.role]}</span>}</td>
                <td className="users-table__status">
                  <span className={user.status === 'active' ? 'status-badge status-badge--done' : 'status-badge status-badge--problem'}>
                    {user.status === 'active' ? 'Active' : 'Suspended'}
                  </span>
                  <span className="console-table__sub">{user.sellerVerified ? 'Verified seller' : 'Seller not verified'}</span>
                </td>
                <td>
                  <div className="users-table__actions" role="group" aria-label={`Actions for ${user.name}`}>
                    {user.status === 'active' ? (
                      <MoveButton label={MOVES.suspend.button} onClick={() => open(user, 'suspend')} />
                    ) : (
                      <MoveButton label={MOVES.unsuspend.button} onClick={() => open(user, 'unsuspend')} />
                    )}
                    {!user.sellerVerified && <MoveButton label={MOVES['verify-seller'].button} onClick={() => open(user, 'verify-seller')} />}
                    {isAdmin && <MoveButton label={MOVES.role.button} onClick={() => open(user, 'role')} />}
                  </div>
                </td>
              </tr>
            ))}
          </TableFrame>
        )}
      </LoadedList>

      {acting && moveOf && (
        <ReasonDialog
          move={moveOf}
          onClose={() => setActing(null)}
          subtitle={`${acting.user.name} · ${acting.user.email}`}
          description={moveOf.description(acting.user)}
          testId="user-action-dialog"
          check={acting.move === 'role' ? (reason) => issuesByField(ChangeRoleSchema, { role, reason }).reason : undefined}
          extra={
            acting.move === 'role' ? (
              <SelectField id={roleId} label="New role" value={role} options={ROLE_OPTIONS} onChange={(value) => setRole(value as UserRole)} />
            ) : undefined
          }
          onConfirm={async (reason) => {
            const { user, move } = acting;
            if (move === 'role') await changeRole(user.id, role, reason);
            else await actOnUser(user.id, move, reason);
            setDone(MOVES[move].done(user));
            retry();
          }}
        />
      )}
    </ConsoleSection>
  );
}
