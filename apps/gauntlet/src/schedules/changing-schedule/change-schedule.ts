import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { BUDGET_FIELD_NAMES, budgetOf, ScanBudget, ScheduleChanges, scheduleDecider, streams } from '@gauntlet/domain';
import { Command } from '../../platform/command';
import { CommandContext, WritePath } from '../../platform/write-path';
import { Clock } from '../../platform/clock';
import { ScheduleView, UpdateScheduleBody } from '../dto';
import { ScheduleReader } from '../schedule-reader';
import { scheduleView } from '../schedule-view';

/**
 * A new time table, profile, budget or catch-up policy, and pausing or resuming: each its own event.
 * Budget fields given change the schedule's budget field by field (null takes one away).
 */
export class ChangeSchedule extends Command<{ account_id: string; schedule_id: string; body: UpdateScheduleBody; context: CommandContext }>() {}

@CommandHandler(ChangeSchedule)
export class ChangeScheduleHandler implements ICommandHandler<ChangeSchedule, ScheduleView> {
  constructor(private readonly writePath: WritePath, private readonly clock: Clock, private readonly schedules: ScheduleReader) {}

  async execute({ account_id, schedule_id, body, context }: ChangeSchedule): Promise<ScheduleView> {
    const { paused, max_requests, max_tokens, max_cost, price_in, price_out, ...timing } = body;
    const given = { max_requests, max_tokens, max_cost, price_in, price_out } as Record<keyof ScanBudget, number | null | undefined>;
    const changes: ScheduleChanges = timing;
    if (BUDGET_FIELD_NAMES.some((f) => given[f] !== undefined)) {
      // the budget as the schedule's stream has it, with the fields given changed
      const current = (await this.writePath.state(scheduleDecider, streams.schedule(schedule_id))).timing?.budget ?? {};
      changes.budget = budgetOf(Object.fromEntries(BUDGET_FIELD_NAMES.map((f) => [f, given[f] === undefined ? current[f] : given[f]])));
    }
    await this.writePath.commit(scheduleDecider, streams.schedule(schedule_id), { type: 'ChangeSchedule', account_id, changes, paused, now: this.clock.iso() }, context);
    return scheduleView(await this.schedules.owned(account_id, schedule_id));
  }
}
