import { fleetStanding, FleetScan, nextScheduledRun, openBySeverity, type Severity } from '@gauntlet/domain';
import type { DocumentStore, ScanDoc, ScheduleDoc, TargetDoc } from '@gauntlet/read-models';
import type { Clock } from '../platform/clock';
import type { ScanReader } from '../scans/scan-reader';
import type { TargetReader } from '../targets/target-reader';
import type { FleetScanView, FleetTargetView, TrendPointView } from './dto';

/** how many of a target's newest scans the fleet view looks through for two finished ones */
const RECENT_SCANS = 20;
const MAX_TARGETS = 1000;

const scanView = (s: FleetScan & { partial?: boolean }): FleetScanView => ({
  id: s.id, status: s.status, score: s.score!.overall_score, grade: s.score!.grade, partial: s.status === 'completed_partial', finished_at: s.finished_at,
});

/**
 * The fleet view: every target of the account with where it stands (the domain's fleetStanding),
 * its open findings after triage and its next scheduled run. Built from the read models per
 * request; a fleet of a few hundred targets costs a few queries per target.
 */
export class FleetReader {
  constructor(private readonly docs: DocumentStore, private readonly targets: TargetReader, private readonly scans: ScanReader, private readonly clock: Clock) {}

  async fleet(account_id: string, tag?: string): Promise<FleetTargetView[]> {
    const [targets, schedules] = await Promise.all([
      this.targets.list(account_id, MAX_TARGETS, undefined, tag),
      this.docs.collection<ScheduleDoc>('schedules').find({ account_id, deleted: false }, { limit: 10_000 }),
    ]);
    return Promise.all(targets.map((t) => this.row(t, schedules)));
  }

  private async row(target: TargetDoc, schedules: ScheduleDoc[]): Promise<FleetTargetView> {
    const recent = await this.scans.scans.find({ account_id: target.account_id, target_id: target._id }, { sort: { field: 'created_at', direction: 'desc' }, limit: RECENT_SCANS });
    const standing = fleetStanding(recent.map(asFleetScan));
    const lastDoc = standing.last ? recent.find((d) => d._id === standing.last!.id)! : null;
    // the newest scan failed: the target is shown failed with its reason, not "not scanned" or its older grade alone
    const newest = recent.find((d) => d.status !== 'pending' && d.status !== 'running');
    const failed = newest && newest.status === 'failed' ? newest : null;
    return {
      target_id: target._id, name: target.name, tags: target.tags ?? [],
      last_scan: standing.last && scanView(standing.last),
      previous_score: standing.previous?.score?.overall_score ?? null,
      change: standing.change,
      open_findings: lastDoc ? await this.open(lastDoc) : openBySeverity([]),
      regressions: lastDoc?.regressions ?? [],
      next_run_at: nextScheduledRun({ id: target._id, tags: target.tags ?? [] }, schedules),
      scanning: standing.scanning,
      last_failure: failed && { scan_id: failed._id, reason: failed.reason ?? null, finished_at: failed.finished_at ?? null },
    };
  }

  /** the target's finished scans, oldest first, with the open findings of each after today's triage */
  async trend(account_id: string, target_id: string, limit: number): Promise<TrendPointView[]> {
    const found: ScanDoc[] = [];
    let after: { value: string; id: string } | undefined;
    for (let pages = 0; pages < 20 && found.length < limit; pages++) {
      const page = await this.scans.scans.find({ account_id, target_id }, { sort: { field: 'created_at', direction: 'desc' }, limit: 100, after });
      found.push(...page.filter((d) => (d.status === 'completed' || d.status === 'completed_partial') && d.score));
      if (page.length < 100) break;
      after = { value: page[page.length - 1].created_at, id: page[page.length - 1]._id };
    }
    const points = await Promise.all(
      found.slice(0, limit).map(async (d) => ({
        scan_id: d._id, finished_at: d.finished_at ?? d.created_at, score: d.score!.overall_score, grade: d.score!.grade, partial: d.status === 'completed_partial', open_findings: await this.open(d),
      })),
    );
    return points.reverse();
  }

  private async open(scan: ScanDoc): Promise<Record<Severity, number>> {
    const findings = await this.scans.triagedFindings(scan, this.clock.iso());
    return openBySeverity(findings.map((f) => ({ severity: f.severity, triage_state: f.triage?.state ?? null })));
  }
}

const asFleetScan = (d: ScanDoc): FleetScan => ({ id: d._id, status: d.status, created_at: d.created_at, finished_at: d.finished_at, score: d.score && { overall_score: d.score.overall_score, grade: d.score.grade } });
