import type { DocumentStore, FindOptions, ScheduleDoc } from '@gauntlet/read-models';
import { ProblemException } from '../http/problem';

/** Schedules as the read model has them (the api's and the scheduler's list; never a firing's facts). */
export class ScheduleReader {
  constructor(private readonly docs: DocumentStore) {}

  private get schedules() {
    return this.docs.collection<ScheduleDoc>('schedules');
  }

  async owned(account_id: string, id: string): Promise<ScheduleDoc> {
    const doc = await this.schedules.get(id);
    if (!doc || doc.deleted || doc.account_id !== account_id) throw new ProblemException(404, 'Schedule not found.');
    return doc;
  }

  /** the account's schedules, newest first */
  async list(account_id: string, limit: number, after: FindOptions['after'], target_id?: string): Promise<ScheduleDoc[]> {
    return this.schedules.find({ account_id, deleted: false, ...(target_id && { target_id }) }, { sort: { field: 'created_at', direction: 'desc' }, limit, after });
  }

  /** the account's live schedules (paused ones too): what the plan's schedule cap counts */
  live(account_id: string): Promise<number> {
    return this.schedules.count({ account_id, deleted: false });
  }

  /** the account's live, unpaused deploy schedules: what a reported deploy may fire (each decides again on its stream) */
  onDeploy(account_id: string): Promise<ScheduleDoc[]> {
    return this.schedules.find({ account_id, trigger: 'deploy', deleted: false, paused: false }, { limit: 10_000 });
  }

  /** every live, unpaused schedule (id and account), all accounts, oldest first: what a scheduler looks at each tick */
  async active(): Promise<{ id: string; account_id: string }[]> {
    const ids: { id: string; account_id: string }[] = [];
    for (let after: FindOptions['after'] = undefined; ; ) {
      const page = await this.schedules.find({ deleted: false, paused: false }, { sort: { field: 'created_at', direction: 'asc' }, limit: 500, after });
      ids.push(...page.map((d) => ({ id: d._id, account_id: d.account_id })));
      if (page.length < 500) return ids;
      after = { value: page[page.length - 1].created_at, id: page[page.length - 1]._id };
    }
  }
}
