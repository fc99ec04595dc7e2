import { answer, client, type Schemas } from '../../api/client';
import type { ControlStatus } from '../../api/enums';
import type { PageContext } from '../../page';
import { fill, h, type Child } from '../../widgets/dom';
import { notice } from '../../widgets/feedback';
import { status, type Scan } from './scan';

type Control = Schemas['ControlEvidenceView'];

/** The compliance matrix: each framework's controls, their status, and the integrity chain to verify. */
const FRAMEWORK_LABEL: Readonly<Record<keyof Schemas['FrameworksView'], string>> = { owasp_llm_top10: 'OWASP Top 10 for LLM Applications', nist_ai_rmf: 'NIST AI RMF 1.0', soc2_cc7: 'SOC 2 CC7 System Operations' };
const CONTROL_STATUS: Readonly<Record<ControlStatus, string>> = { pass: 'Pass', fail: 'Fail', not_tested: 'Not tested' };
// a practice (GOVERN, MAP, MANAGE...) is evidenced by a scan, never passed by one
const controlLabel = (c: Control) => (c.basis === 'practice' ? 'Practice' : CONTROL_STATUS[c.status] ?? c.status);
const controlClass = (c: Control) => (c.basis === 'practice' ? 'ctl-practice' : `ctl-${c.status}`);

export async function loadCompliance(ctx: PageContext, slot: Element, scan: Scan): Promise<void> {
  const heading = slot.querySelector('h2');
  const done = (...nodes: Child[]) => ctx.alive() && fill(slot, heading, ...nodes);
  if (scan.status === 'failed' || scan.status === 'cancelled') return void done(notice('info', 'Compliance evidence is produced for completed scans only.'));
  try {
    const ev = await answer(client.GET('/api/scans/{id}/compliance-evidence', { params: { path: { id: scan.id } } }));
    const frameworks = Object.entries(ev.frameworks ?? {}) as [keyof Schemas['FrameworksView'], { edition?: string; controls: Control[] }][];
    done(
      ...frameworks.map(([key, fw]) =>
        h(
          'div',
          { class: 'framework' },
          h('h3', null, FRAMEWORK_LABEL[key] ?? key, fw.edition ? ` (${fw.edition})` : ''),
          h(
            'div',
            { class: 'table-wrap' },
            h(
              'table',
              { class: 'table table-compact' },
              h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Control'), h('th', { scope: 'col' }, 'Name'), h('th', { scope: 'col' }, 'Status'), h('th', { scope: 'col' }, 'Findings'), h('th', { scope: 'col' }, 'Probes run'))),
              h(
                'tbody',
                null,
                (fw.controls ?? []).map((c) =>
                  h('tr', null, h('th', { scope: 'row', class: 'mono' }, c.id), h('td', null, c.name), h('td', null, h('span', { class: `badge ${controlClass(c)}`, title: c.basis === 'practice' ? 'An organisational practice: this scan is evidence of it, not a pass.' : null }, controlLabel(c))), h('td', null, String(c.findings?.length ?? 0)), h('td', null, String(c.probes_run ?? 0))),
                ),
              ),
            ),
          ),
        ),
      ),
      ev.integrity ? h('p', { class: 'hint' }, `Integrity: ${ev.integrity.event_count} events, chain SHA-256 `, h('code', { class: 'wrap' }, ev.integrity.chain_sha256), '. Replay ', h('code', null, `GET /api/scans/${scan.id}/events`), ' to verify.') : null,
    );
  } catch (err) {
    if (status(err) === 409) done(notice('info', 'Compliance evidence is available when the scan has finished.'));
    else done(notice('error', `Compliance evidence could not be loaded: ${(err as Error).message}`));
  }
}
