import { Decider, DomainError } from '../decider';
import { DomainEvent, event } from '../events';

/**
 * A reservation that has not become an account by then was left by a registration that stopped
 * between its two appends (a crash): the email may be reserved again. Well above the time one
 * registration takes, so a live one is never overtaken.
 */
export const EMAIL_RESERVATION_TIMEOUT_MS = 10 * 60_000;

export type EmailReservationEvent = DomainEvent<'EmailReserved', { email_hash: string; account_id: string; reserved_at: string }>;

/**
 * Registering an email reserves it, in a stream of its own keyed by the email's hash, before the
 * account stream (random id) is written: the reservation's append (expected revision no_stream,
 * or the revision read) is what makes an email unique, since no store here has a transaction
 * across streams. The handler reads the facts the rule needs and passes them in.
 */
export interface ReserveEmail {
  type: 'ReserveEmail';
  email_hash: string;
  account_id: string;
  now: string;
  /** the account that holds the reservation exists (its stream has events) */
  holder_registered: boolean;
  /** an account from before reservations (its id is derived from the email) exists */
  legacy_account_exists: boolean;
}

export interface EmailReservationState {
  holder: string | null;
  reserved_at: string | null;
}

const taken = () => new DomainError('conflict', 'An account with this email already exists.', { field: 'email' });

export const emailReservationDecider: Decider<ReserveEmail, EmailReservationEvent, EmailReservationState> = {
  initialState: () => ({ holder: null, reserved_at: null }),

  decide(command, state) {
    if (command.legacy_account_exists) throw taken();
    if (state.holder === command.account_id) return []; // a retry of the same registration
    if (state.holder !== null) {
      const abandoned = !command.holder_registered && Date.parse(command.now) - Date.parse(state.reserved_at!) >= EMAIL_RESERVATION_TIMEOUT_MS;
      if (!abandoned) throw taken();
    }
    return [event('EmailReserved', { email_hash: command.email_hash, account_id: command.account_id, reserved_at: command.now })];
  },

  evolve(state, e) {
    return e.type === 'EmailReserved' ? { holder: e.data.account_id, reserved_at: e.data.reserved_at } : state;
  },
};
