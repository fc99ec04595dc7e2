import { answer, client } from '../../api/client';
import type { PageContext } from '../../page';
import { severities } from '../../widgets/badges';
import { categoryBars } from '../../widgets/charts';
import { fill, h, type Child } from '../../widgets/dom';
import { notice } from '../../widgets/feedback';
import { gradeClass, gradeText } from '../../widgets/format';
import { status, type Scan } from './scan';

/** The security score card: the number and grade (a partial one never alone), counts, categories, the score after triage. */
export function severityCounts(counts: Partial<Record<string, number>> | undefined): HTMLUListElement {
  return h(
    'ul',
    { class: 'sev-counts', 'aria-label': 'Findings by severity' },
    severities.map((s) => h('li', { class: `sev-count sev-${s}` }, h('span', { class: 'n' }, String(counts?.[s] ?? 0)), h('span', { class: 'l' }, s))),
  );
}

const VIA: Readonly<Record<string, string>> = { request: "sent to an attacker's address", link: 'put in a link its answer built', answer: 'said in an answer' };
const KIND: Readonly<Record<string, string>> = { credential: 'credential', personal: "person's data", code: 'internal code', wording: "prompt's wording" };

/** What leaked, once, right under the score: each value the target holds that came out, masked, a credential marked to rotate, linked to its finding. */
export function whatLeaked(scan: Scan): HTMLElement | null {
  const list = scan.exposures ?? [];
  if (!list.length) return scan.vulnerabilities?.length ? h('p', { class: 'hint', id: 'what-leaked' }, 'Nothing the target holds came out.') : null;
  const rotate = list.filter((e) => e.rotate).length;
  return h(
    'section',
    { class: 'what-leaked', id: 'what-leaked', 'aria-label': 'What leaked' },
    h('h3', null, 'What leaked'),
    h('p', { class: rotate ? 'leak-head rotate' : 'leak-head' }, `${list.length === 1 ? 'One value' : `${list.length} values`} the target holds came out${rotate ? `; rotate ${rotate === 1 ? 'this credential' : `these ${rotate} credentials`} now` : ''}.`),
    h(
      'ul',
      { class: 'plain leaked' },
      list.map((e) =>
        h(
          'li',
          { dataset: { kind: e.kind, vulnerabilityId: e.vulnerability_id } },
          e.rotate ? h('span', { class: 'badge badge-rotate' }, 'Rotate this') : null,
          h('strong', null, e.label ?? e.shape ?? KIND[e.kind] ?? e.kind),
          ` (${KIND[e.kind] ?? e.kind}${e.whole ? '' : ', in part'}): `,
          h('code', null, e.shown),
          `, ${(e.via ?? []).map((v) => VIA[v] ?? v).join(' and ')}, in ${e.conversations} conversation${e.conversations === 1 ? '' : 's'} `,
          h('a', { href: `#finding-${e.vulnerability_id}` }, 'see the finding'),
        ),
      ),
    ),
  );
}

export async function loadScore(ctx: PageContext, slot: Element, scan: Scan): Promise<void> {
  const heading = slot.querySelector('h2');
  const done = (...nodes: Child[]) => {
    if (!ctx.alive()) return;
    fill(slot, heading, ...nodes);
  };
  if (scan.status === 'failed' || scan.status === 'cancelled') {
    return done(notice('info', scan.status === 'failed' ? `This scan failed${scan.reason ? `: ${scan.reason}` : ''}. Failed scans have no score; fix the target settings and scan again.` : `This scan was cancelled${scan.cancelled_by_name ? ` by ${scan.cancelled_by_name}` : ''}, so it has no score. Start a new scan from the target page.`), severityCounts(scan.severity_counts));
  }
  try {
    const score = await answer(client.GET('/api/scans/{id}/score', { params: { path: { id: scan.id } } }));
    done(
      h(
        'div',
        { class: 'score-head' },
        h('div', { class: `score-big ${gradeClass(score.grade)}` }, h('span', { class: 'score-n' }, String(score.overall_score)), h('span', { class: 'score-of' }, '/100')),
        h(
          'div',
          { class: `grade ${gradeClass(score.grade)}`, 'aria-label': `Grade ${gradeText(score.grade, score)}` },
          score.grade,
          // a partial grade never stands alone
          score.partial ? h('span', { class: 'partial-mark', id: 'partial-mark' }, typeof score.coverage === 'number' ? ` partial: ${Math.round(score.coverage * 100)}% of the plan ran` : ' partial scan') : null,
        ),
        severityCounts({ critical: score.critical_count, high: score.high_count, medium: score.medium_count, low: score.low_count }),
      ),
      whatLeaked(scan),
      score.partial || scan.status === 'completed_partial'
        ? notice('warn', `Partial scan: it stopped after ${typeof score.coverage === 'number' ? `${Math.round(score.coverage * 100)}%` : 'part'} of its plan${scan.reason ? ` (${scan.reason})` : ''}. The score and grade cover only what ran.`)
        : null,
      h('h3', null, 'By category'),
      Object.keys(score.category_scores ?? {}).length ? categoryBars(score.category_scores) : h('p', { class: 'hint' }, 'No category was probed.'),
      score.after_triage && score.after_triage.findings_triaged_away > 0
        ? h(
            'p',
            { class: 'after-triage', id: 'after-triage' },
            `As scanned ${score.overall_score} (${gradeText(score.grade, score)}); after triage ${score.after_triage.overall_score} (${score.after_triage.grade}), with ${score.after_triage.findings_triaged_away} finding${score.after_triage.findings_triaged_away === 1 ? '' : 's'} set aside. The recorded score does not change.`,
          )
        : h('p', { class: 'hint', id: 'after-triage' }, 'Nothing is triaged away: the score after triage is the same.'),
      score.scoring_version ? h('p', { class: 'hint' }, `Scoring version ${score.scoring_version}.`) : null,
    );
  } catch (err) {
    if (status(err) === 409) done(notice('info', 'The score is available when the scan has finished.'), severityCounts(scan.severity_counts));
    else done(notice('error', `The score could not be loaded: ${(err as Error).message}`), severityCounts(scan.severity_counts));
  }
}
