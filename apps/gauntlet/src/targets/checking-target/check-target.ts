import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Inject } from '@nestjs/common';
import type { TargetDoc } from '@gauntlet/read-models';
import { ProblemException } from '../../http/problem';
import { RUNTIME, Runtime } from '../../runtime';
import type { TargetCheckView } from '../dto';
import { TargetChecker } from './target-checker';

export class CheckTarget {
  constructor(readonly account_id: string, readonly target_id: string) {}
}

@CommandHandler(CheckTarget)
export class CheckTargetHandler implements ICommandHandler<CheckTarget, TargetCheckView> {
  constructor(@Inject(RUNTIME) private readonly runtime: Runtime, private readonly checker: TargetChecker) {}

  async execute({ account_id, target_id }: CheckTarget): Promise<TargetCheckView> {
    const doc = await this.runtime.infra.documents.collection<TargetDoc>('targets').get(target_id);
    if (!doc || doc.deleted || doc.account_id !== account_id) throw new ProblemException(404, 'Target not found.');
    return this.checker.check(doc);
  }
}
