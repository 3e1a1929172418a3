import { useState, type ComponentType } from 'react';
import type { PartyAction } from '@common/order-lifecycle.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { ModalDialog } from '../../../components/ui/modal-dialog.tsx';
import type { OrderRole } from '../../../lib/order-progress.ts';
import type { OrderWithEvents } from '../api/orders-api.ts';
import { useActionRunner } from '../hooks/use-action-runner.ts';
import { availableActions } from '../lib/actions.ts';
import { AcceptForm, CancelForm, DisputeForm, PayForm, ShipForm, type ActionFormProps } from './order-action-forms.tsx';

const BUTTONS: Record<PartyAction, { label: string; busy: string; primary: boolean }> = {
  pay: { label: 'Pay into Escrow', busy: 'Paying...', primary: true },
  ship: { label: 'Enter Shipment', busy: 'Saving shipment...', primary: true },
  'confirm-delivery': { label: 'Confirm Delivery', busy: 'Confirming...', primary: true },
  accept: { label: 'Accept the Car', busy: 'Accepting...', primary: true },
  dispute: { label: 'Open a Dispute', busy: 'Opening dispute...', primary: false },
  cancel: { label: 'Cancel Order', busy: 'Cancelling...', primary: false },
};

type DialogAction = Exclude<PartyAction, 'confirm-delivery'>;

/** The dialog of each move that asks first: its title, what it says first, and its form. */
const DIALOGS: Record<DialogAction, { title: string; description: (role: OrderRole) => string | undefined; Form: ComponentType<ActionFormProps> }> = {
  pay: {
    title: 'Pay into Escrow',
    description: () =>
      'Your payment is held in escrow. The seller is paid only after you have inspected and accepted the car; if there is a problem, you can open a dispute.',
    Form: PayForm,
  },
  ship: {
    title: 'Ship the Car',
    description: () => 'Hand the car to a carrier, then enter its details. The buyer is told at once and can follow the delivery.',
    Form: ShipForm,
  },
  accept: { title: 'Accept the Car', description: () => undefined, Form: AcceptForm },
  dispute: {
    title: 'Open a Dispute',
    description: () =>
      'The funds stay in escrow while our escrow team reviews the dispute with you and the seller. They decide to refund you or release the funds to the seller.',
    Form: DisputeForm,
  },
  cancel: {
    title: 'Cancel Order',
    description: (role) =>
      role === 'buyer'
        ? 'Nothing has been paid yet, so nothing is charged. The seller is told that you cancelled.'
        : 'The buyer has not paid yet. They are told that you cancelled, and the car stays listed.',
    Form: CancelForm,
  },
};

const DIALOG_ACTIONS = Object.keys(DIALOGS) as DialogAction[];

const carTitle = (order: OrderWithEvents) => `${order.car.year} ${order.car.make} ${order.car.model} · Order #${order.id}`;

/** The buttons for the viewer's moves, and the dialog each one opens. */
export function OrderActions({ order, role, onMoved }: { order: OrderWithEvents; role: OrderRole; onMoved?: () => void }) {
  const runner = useActionRunner(order.id, onMoved);
  const [opened, setOpened] = useState<PartyAction | null>(null);
  const actions = availableActions(order, role);
  // A dialog whose move is no longer possible (the order moved meanwhile) closes by itself.
  const dialog = opened && actions.includes(opened) ? opened : null;
  const panelError = runner.error && runner.error.action !== dialog ? runner.error : null;

  if (actions.length === 0 && !panelError) return null;

  function open(action: PartyAction) {
    runner.clearError();
    if (action === 'confirm-delivery') {
      void runner.run('confirm-delivery', {});
      return;
    }
    setOpened(action);
  }

  const close = () => {
    setOpened(null);
    runner.clearError();
  };
  const dialogError = runner.error && runner.error.action === dialog ? runner.error.message : null;

  return (
    <div className="order-actions">
      {actions.length > 0 && (
        <div className="order-actions__buttons">
          {actions.map((action) => {
            const { label, busy, primary } = BUTTONS[action];
            return (
              <button
                key={action}
                type="button"
                className={primary ? 'btn btn--gold' : 'btn btn--outline'}
                disabled={runner.pending !== null}
                aria-haspopup={action === 'confirm-delivery' ? undefined : 'dialog'}
                onClick={() => open(action)}
              >
                {runner.pending === action ? busy : label}
              </button>
            );
          })}
        </div>
      )}
      {actions.includes('confirm-delivery') && (
        <p className="order-actions__hint">
          Confirm only once the car has arrived: your {order.inspectionDays}-day inspection period starts then.
        </p>
      )}
      {panelError && (
        <Alert tone="error" testId="order-action-error">
          <p>{panelError.message}</p>
        </Alert>
      )}

      {DIALOG_ACTIONS.map((action) => {
        const { title, description, Form } = DIALOGS[action];
        return (
          <ModalDialog
            key={action}
            open={dialog === action}
            busy={runner.pending === action}
            onClose={close}
            title={title}
            subtitle={carTitle(order)}
            description={description(role)}
            testId={`${action}-dialog`}
          >
            <Form order={order} runner={runner} error={dialogError} onDone={close} />
          </ModalDialog>
        );
      })}
    </div>
  );
}
