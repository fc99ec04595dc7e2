import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { scanDecider, ScanStatus, streams } from '@gauntlet/domain';
import { Command } from '../../platform/command';
import { CommandContext, WritePath } from '../../platform/write-path';
import { Clock } from '../../platform/clock';

/** The worker running the scan learns of it when its next write is refused, and stops. */
export class CancelScan extends Command<{ account_id: string; scan_id: string; context: CommandContext }>() {}

@CommandHandler(CancelScan)
export class CancelScanHandler implements ICommandHandler<CancelScan, { id: string; status: ScanStatus }> {
  constructor(private readonly writePath: WritePath, private readonly clock: Clock) {}

  async execute(c: CancelScan) {
    const { state } = await this.writePath.commit(
      scanDecider,
      streams.scan(c.scan_id),
      { type: 'CancelScan', account_id: c.account_id, cancelled_by: c.context.actor, now: this.clock.iso() },
      c.context,
    );
    return { id: c.scan_id, status: state.status };
  }
}
