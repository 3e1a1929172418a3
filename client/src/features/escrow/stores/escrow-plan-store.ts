import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { DEFAULT_ESCROW_PLAN, isEscrowPlanId, type EscrowPlanId } from '@common/escrow-plans.ts';

/**
 * The escrow plan the visitor chose on the Escrow page, carried into "Buy with Escrow".
 * Kept in sessionStorage: it lasts while the tab is open, and a new visit starts from the
 * default (Premium Shield).
 */
export interface EscrowPlanState {
  plan: EscrowPlanId;
  setPlan: (plan: EscrowPlanId) => void;
}

export const ESCROW_PLAN_STORAGE_KEY = 'luxemotors.escrowPlan';

function sessionStore(): Storage {
  try {
    if (typeof window !== 'undefined' && window.sessionStorage) return window.sessionStorage;
  } catch {
    // Access can throw (privacy mode, sandboxed frames): fall through to memory.
  }
  const memory = new Map<string, string>();
  return {
    get length() {
      return memory.size;
    },
    clear: () => memory.clear(),
    getItem: (key) => memory.get(key) ?? null,
    key: (index) => [...memory.keys()][index] ?? null,
    removeItem: (key) => void memory.delete(key),
    setItem: (key, value) => void memory.set(key, value),
  };
}

export const useEscrowPlanStore = create<EscrowPlanState>()(
  persist(
    (set) => ({
      plan: DEFAULT_ESCROW_PLAN,
      setPlan: (plan) => set({ plan }),
    }),
    {
      name: ESCROW_PLAN_STORAGE_KEY,
      version: 1,
      storage: createJSONStorage(sessionStore),
      partialize: (state) => ({ plan: state.plan }),
      // Whatever is stored is checked: an unknown plan falls back to the default.
      merge: (persisted, current) => {
        const plan = (persisted as { plan?: unknown } | null)?.plan;
        return { ...current, plan: typeof plan === 'string' && isEscrowPlanId(plan) ? plan : current.plan };
      },
      // Read just below instead: the store's initial state stays the default plan, the one a
      // page drawn on the server shows, which React hydrates with before showing the stored one.
      skipHydration: true,
    },
  ),
);
void useEscrowPlanStore.persist.rehydrate();
