import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { TargetReader } from '../target-reader';
import type { TargetCheckView } from '../dto';
import { TargetChecker } from './target-checker';
import { Command } from '../../platform/command';

export class CheckTarget extends Command<{ account_id: string; target_id: string }>() {}

@CommandHandler(CheckTarget)
export class CheckTargetHandler implements ICommandHandler<CheckTarget, TargetCheckView> {
  constructor(private readonly targets: TargetReader, private readonly checker: TargetChecker) {}

  async execute({ account_id, target_id }: CheckTarget): Promise<TargetCheckView> {
    return this.checker.check(await this.targets.owned(account_id, target_id));
  }
}
