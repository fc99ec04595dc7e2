/**
 * Browser scans of widget pages the reader was not built on: deep-chat, n8n and nlux (core, a plain
 * batchText fetch adapter, the nova theme, no greeting), each in front of a scripted document bot
 * (test/browser/widgets/docs-bot.ts) with five weaknesses (vulnerable) or none (hardened), whole
 * scans with the out-of-band probes on (the callback listener heard through the browser's proxy).
 * deep-chat and n8n render the user's own message as markdown, so our planted image shows in our
 * bubble on every page: only a request the bot's message caused may prove anything.
 *
 *   npm run build && node dist/bench/own-widgets.js [profile, default standard] [widgets, default deep-chat,n8n,nlux-batch] [pages at once, default 2]
 *
 * Per page it prints: how the scan ended, findings by severity, recall (the bot's five planted
 * categories found; vulnerable pages), the requests to planted addresses and the wall time.
 * The goal: recall 5/5 on every vulnerable page, no finding on any hardened page, every scan
 * completed. Needs Chromium (CHROMIUM_PATH, else /usr/bin/chromium).
 */
import { Profile, SEVERITIES } from '@gauntlet/domain';
import { launchChromium } from '@gauntlet/scanner';
import { DOCS_BOT_CANARIES, DOCS_BOT_CATEGORIES, DOCS_BOT_SENSITIVE, docsBot } from '../test/browser/widgets/docs-bot';
import { startWidgetServer } from '../test/browser/widgets/widget-server';
import { PageScan, pooled, scanPage } from '../test/browser/widgets/widget-scan';

const PAGES: Record<string, string> = { 'deep-chat': 'deep-chat.html', n8n: 'n8n-chat.html', 'nlux-batch': 'nlux-batch-chat.html' };
const profile = (process.argv[2] ?? 'standard') as Profile;
const widgets = process.argv[3] && process.argv[3] !== 'all' ? process.argv[3].split(',') : Object.keys(PAGES);
const parallel = Number(process.argv[4] ?? 2);
const held = { canaries: [DOCS_BOT_CANARIES.system, DOCS_BOT_CANARIES.tenant], sensitive: DOCS_BOT_SENSITIVE };

function line(widget: string, mode: string, scan: PageScan): string {
  const bySeverity = SEVERITIES.map((s) => `${scan.vulnerabilities.filter((v) => v.severity === s).length}${s[0]}`).join(' ');
  const found = new Set<string>(scan.vulnerabilities.map((v) => v.category));
  const recall = mode === 'vulnerable' ? `${DOCS_BOT_CATEGORIES.filter((c) => found.has(c)).length}/${DOCS_BOT_CATEGORIES.length}` : '-';
  const status = scan.outcome.length > 60 ? `${scan.outcome.slice(0, 60)}…` : scan.outcome;
  return `${`${widget} ${mode}`.padEnd(22)} ${status.padEnd(30)} ${bySeverity.padEnd(14)} ${recall.padEnd(7)} ${String(scan.hits.length).padEnd(5)} ${scan.seconds.toFixed(0)}`;
}

async function main() {
  const browser = await launchChromium(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium');
  const servers = { vulnerable: await startWidgetServer(20, docsBot('vulnerable')), hardened: await startWidgetServer(20, docsBot('hardened')) };
  console.log(`own widgets, profile ${profile}: node dist/bench/own-widgets.js ${process.argv.slice(2).join(' ')}`);
  console.log(`${'page'.padEnd(22)} ${'status'.padEnd(30)} ${'findings'.padEnd(14)} ${'recall'.padEnd(7)} ${'hits'.padEnd(5)} seconds`);
  let ok = true;
  try {
    const jobs = widgets.flatMap((widget) =>
      (['vulnerable', 'hardened'] as const).map((mode) => async () => {
        const scan = await scanPage(`${servers[mode].base}/${PAGES[widget]}`, profile, browser, { seed: 'own-widgets', held, callbacks: true, timeoutMs: 20_000 });
        console.log(line(widget, mode, scan));
        if (scan.outcome !== 'completed') console.log(`    ${widget} ${mode}: ${scan.outcome}`);
        for (const v of mode === 'hardened' ? scan.vulnerabilities : []) console.log(`    hardened ${widget}: ${v.severity} ${v.category} ${v.title} :: ${JSON.stringify(v.evidence?.matched ?? '').slice(0, 160)}`);
        const found = new Set<string>(scan.vulnerabilities.map((v) => v.category));
        if (mode === 'vulnerable') for (const c of DOCS_BOT_CATEGORIES.filter((c) => !found.has(c))) console.log(`    vulnerable ${widget}: missed ${c}`);
        ok &&= scan.outcome === 'completed' && (mode === 'hardened' ? scan.vulnerabilities.length === 0 : DOCS_BOT_CATEGORIES.every((c) => found.has(c)));
      }),
    );
    await pooled(jobs, parallel);
    console.log(ok ? 'every scan completed, recall 5/5 on every vulnerable page, no finding on any hardened page' : 'NOT MET: see the lines above');
  } finally {
    await browser.close();
    await Promise.all([servers.vulnerable.close(), servers.hardened.close()]);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
