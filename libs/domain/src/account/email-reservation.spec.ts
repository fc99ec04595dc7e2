import { spec } from '@gauntlet/testing';
import { EMAIL_RESERVATION_TIMEOUT_MS, emailReservationDecider, EmailReservationEvent, ReserveEmail } from './email-reservation';

const at = (ms: number) => new Date(Date.parse('2026-11-21T10:00:00.000Z') + ms).toISOString();
const reserved = (account_id: string, ms = 0): EmailReservationEvent => ({ type: 'EmailReserved', schemaVersion: 1, data: { email_hash: 'h', account_id, reserved_at: at(ms) } });
const reserve = (account_id: string, ms = 0, facts: Partial<ReserveEmail> = {}): ReserveEmail => ({
  type: 'ReserveEmail', email_hash: 'h', account_id, now: at(ms), holder_registered: false, legacy_account_exists: false, ...facts,
});

describe('email reservation decider', () => {
  it('reserves a free email for the new account', () => {
    spec(emailReservationDecider).given([]).when(reserve('a1')).then([reserved('a1')]);
  });

  it('refuses an email another account holds, registered or still registering', () => {
    spec(emailReservationDecider).given([reserved('a1')]).when(reserve('a2', 1000, { holder_registered: true })).thenFails('conflict', /already exists/);
    spec(emailReservationDecider).given([reserved('a1')]).when(reserve('a2', 1000)).thenFails('conflict');
    spec(emailReservationDecider).given([reserved('a1')]).when(reserve('a2', EMAIL_RESERVATION_TIMEOUT_MS * 5, { holder_registered: true })).thenFails('conflict');
  });

  it('refuses an email whose account predates reservations', () => {
    spec(emailReservationDecider).given([]).when(reserve('a1', 0, { legacy_account_exists: true })).thenFails('conflict');
  });

  it('lets a reservation abandoned by a crash between the two appends be taken, once it is old enough', () => {
    spec(emailReservationDecider).given([reserved('a1')]).when(reserve('a2', EMAIL_RESERVATION_TIMEOUT_MS - 1)).thenFails('conflict');
    spec(emailReservationDecider).given([reserved('a1')]).when(reserve('a2', EMAIL_RESERVATION_TIMEOUT_MS)).then([reserved('a2', EMAIL_RESERVATION_TIMEOUT_MS)]);
  });

  it('treats the same registration again as a retry', () => {
    spec(emailReservationDecider).given([reserved('a1')]).when(reserve('a1', 5)).then([]);
  });
});
