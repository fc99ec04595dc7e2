import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { accountIdFor, hashPassword, normaliseEmail } from '@gauntlet/auth';
import { accountDecider, DomainError, Plan, Role, streams } from '@gauntlet/domain';
import { CommandContext } from '../../platform/aggregates';
import { RUNTIME, Runtime } from '../../runtime';

export class RegisterAccount {
  constructor(readonly email: string, readonly password: string, readonly context: CommandContext, readonly plan: Plan = 'free', readonly role: Role = 'member') {}
}

export interface RegisteredAccount {
  id: string;
  email: string;
  plan: Plan;
}

@CommandHandler(RegisterAccount)
export class RegisterAccountHandler implements ICommandHandler<RegisterAccount, RegisteredAccount> {
  constructor(@Inject(RUNTIME) private readonly runtime: Runtime) {}

  async execute(c: RegisterAccount): Promise<RegisteredAccount> {
    const email = normaliseEmail(c.email);
    const account_id = accountIdFor(email);
    const password_hash = await hashPassword(c.password);
    const { events } = await this.runtime.commit(
      accountDecider,
      streams.account(account_id),
      { type: 'RegisterAccount', account_id, email, password_hash, plan: c.plan, role: c.role, now: new Date().toISOString() },
      c.context,
    );
    if (events.length === 0) throw new DomainError('conflict', 'An account with this email already exists.');
    return { id: account_id, email, plan: c.plan };
  }
}
