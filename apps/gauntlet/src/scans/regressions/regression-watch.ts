import { DomainError, scanDecider, scanRegressions, streams, targetDecider, triageDecider } from '@gauntlet/domain';
import type { RecordedEvent } from '@gauntlet/eventstore';
import { DocumentCheckpoints, type DocumentStore, type FindOptions, type ScanDoc } from '@gauntlet/read-models';
import { CheckpointedSubscription } from '@gauntlet/subscriptions';
import type { WritePath } from '../../platform/write-path';
import type { Runtime } from '../../runtime';

const FINISHED = new Set(['completed', 'completed_partial']);

/** the score of the target's newest finished scan requested before this one (null: none) */
export async function previousScore(docs: DocumentStore, scan: { id: string; account_id: string; target_id: string; requested_at: string }): Promise<number | null> {
  const scans = docs.collection<ScanDoc>('scans');
  let after: FindOptions['after'] = { value: scan.requested_at, id: scan.id };
  for (let pages = 0; pages < 20; pages++) {
    const page = await scans.find({ account_id: scan.account_id, target_id: scan.target_id }, { sort: { field: 'created_at', direction: 'desc' }, limit: 50, after });
    const prior = page.find((d) => FINISHED.has(d.status) && d.score);
    if (prior) return prior.score!.overall_score;
    if (page.length < 50) return null;
    after = { value: page[page.length - 1].created_at, id: page[page.length - 1]._id };
  }
  return null;
}

/**
 * When a scan finishes, the regression policy (libs/domain, scanRegressions) is asked once, on
 * facts from the log (the scan's fingerprints, the target's triage and threshold) and the score
 * of its previous scan, and what it decides is recorded on the scan's stream as ScanRegressed:
 * the webhook relay then carries it like every scan event, and a replay raises the same alerts.
 */
export async function recordRegressions(writePath: WritePath, docs: DocumentStore, scan_id: string, now: string): Promise<number> {
  const scan = await writePath.state(scanDecider, streams.scan(scan_id));
  if (!scan.id || !FINISHED.has(scan.status) || scan.score === undefined) return 0;
  const target = await writePath.state(targetDecider, streams.target(scan.target_id!));
  const triage = await writePath.state(triageDecider, streams.target(scan.target_id!));
  const regressions = scanRegressions({
    // a fix decided on a fingerprint a finding now supersedes (probe:category) is found again too
    fingerprints: [...Object.values(scan.findings), ...Object.values(scan.supersedes ?? {}).flat()],
    requested_at: scan.requested_at!,
    decisions: Object.values(triage.decisions),
    score: scan.score,
    previous_score: await previousScore(docs, { id: scan.id, account_id: scan.account_id!, target_id: scan.target_id!, requested_at: scan.requested_at! }),
    threshold: target.settings?.regression_threshold ?? null,
  });
  let recorded = 0;
  for (const regression of regressions) {
    try {
      const { events } = await writePath.decide(scanDecider, streams.scan(scan_id), { type: 'RecordRegression', regression, now }, { actor: 'system:regression-watch', correlationId: scan_id });
      recorded += events.length;
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
    }
  }
  return recorded;
}

const REGRESSION_WATCH = 'regression-watch';

/** the log consumer that runs recordRegressions for every finished scan (in the relay role) */
export async function startRegressionWatch(runtime: Runtime): Promise<() => Promise<void>> {
  const { events, documents } = runtime.infra;
  const checkpoints = new DocumentCheckpoints(documents);
  // a deployment that had scans before this watch existed starts at the log's head: scans that
  // finished long ago raise no alerts on upgrade (their regressions were never decided)
  if ((await checkpoints.load(REGRESSION_WATCH)) === null) {
    const head = await events.headPosition();
    if (head !== null) await checkpoints.save(REGRESSION_WATCH, head);
  }
  const watch = new CheckpointedSubscription(
    events, checkpoints, REGRESSION_WATCH,
    async (e: RecordedEvent) => {
      const count = await recordRegressions(runtime.writePath, documents, e.data.scan_id, runtime.clock.iso());
      if (count) runtime.log.warn({ scan_id: e.data.scan_id, regressions: count }, 'scan regressed');
    },
    { filter: { eventTypes: ['ScanCompleted', 'ScanCompletedPartial'] }, log: runtime.log },
  );
  await watch.start();
  return () => watch.stop();
}
