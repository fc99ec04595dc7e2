import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { streams, targetDecider } from '@gauntlet/domain';
import { CommandContext } from '../../platform/aggregates';
import { RUNTIME, Runtime } from '../../runtime';

/** Deleting a target keeps its scans: their history is compliance evidence. */
export class DeleteTarget {
  constructor(readonly account_id: string, readonly target_id: string, readonly context: CommandContext) {}
}

@CommandHandler(DeleteTarget)
export class DeleteTargetHandler implements ICommandHandler<DeleteTarget, void> {
  constructor(@Inject(RUNTIME) private readonly runtime: Runtime) {}

  async execute({ account_id, target_id, context }: DeleteTarget): Promise<void> {
    await this.runtime.commit(targetDecider, streams.target(target_id), { type: 'DeleteTarget', account_id, now: new Date().toISOString() }, context);
  }
}
