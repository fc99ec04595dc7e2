import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { randomUUID } from 'node:crypto';
import { accountIdFor, emailHashFor, hashPassword, normaliseEmail } from '@gauntlet/auth';
import { accountDecider, DomainError, emailReservationDecider, Plan, Role, streams } from '@gauntlet/domain';
import { Command } from '../../platform/command';
import { CommandContext, WritePath } from '../../platform/write-path';
import { Clock } from '../../platform/clock';

export class RegisterAccount extends Command<{
  email: string;
  password: string;
  context: CommandContext;
  plan: Plan;
  role: Role;
}>() {}

export interface RegisteredAccount {
  id: string;
  email: string;
  plan: Plan;
}

@CommandHandler(RegisterAccount)
export class RegisterAccountHandler implements ICommandHandler<RegisterAccount, RegisteredAccount> {
  constructor(private readonly writePath: WritePath, private readonly clock: Clock) {}

  /**
   * A random account id (an id derived from the email could be guessed); the email reserved
   * first, in its own stream, which is what keeps it unique (email-reservation.ts).
   */
  async execute(c: RegisterAccount): Promise<RegisteredAccount> {
    const email = normaliseEmail(c.email);
    const account_id = randomUUID();
    const password_hash = await hashPassword(c.password);
    // an account stream exists once its AccountRegistered is recorded
    const exists = async (id: string) => (await this.writePath.state(accountDecider, streams.account(id))).id !== null;
    const reservation = streams.emailReservation(emailHashFor(email));
    const state = await this.writePath.state(emailReservationDecider, reservation);
    await this.writePath.decide(
      emailReservationDecider,
      reservation,
      {
        type: 'ReserveEmail', email_hash: emailHashFor(email), account_id, now: this.clock.iso(),
        holder_registered: state.holder !== null && (await exists(state.holder)),
        legacy_account_exists: await exists(accountIdFor(email)),
      },
      c.context,
    );
    const { events } = await this.writePath.commit(
      accountDecider,
      streams.account(account_id),
      { type: 'RegisterAccount', account_id, email, password_hash, plan: c.plan, role: c.role, now: this.clock.iso() },
      c.context,
    );
    if (events.length === 0) throw new DomainError('conflict', 'An account with this email already exists.');
    return { id: account_id, email, plan: c.plan };
  }
}
