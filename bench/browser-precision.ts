/**
 * Browser-mode precision on the chat widgets teams embed: each widget (test/browser/widgets),
 * served from its npm package, in front of the lab's brain with every weakness on (vulnerable) and
 * with none (hardened), scanned in browser mode with no selectors configured.
 *
 *   npm run build && node dist/bench/browser-precision.js [profile, default standard] [widgets, default all] [pages at once, default 2]
 *
 * Per widget it prints: findings on the hardened page (every one of them false; how many high or
 * critical), recall on the vulnerable page (the lab's planted categories a browser scan can reach,
 * found / reachable, and those missed), the requests the bot received and the wall time of both
 * scans. Needs Chromium (CHROMIUM_PATH, else /usr/bin/chromium).
 */
import { Profile } from '@gauntlet/domain';
import { launchChromium } from '@gauntlet/scanner';
import { labBot, startWidgetServer, WidgetName, WIDGETS } from '../test/browser/widgets/widget-server';
import { pooled, REACHABLE_CATEGORIES, scanPage } from '../test/browser/widgets/widget-scan';

const profile = (process.argv[2] ?? 'standard') as Profile;
const widgets = (process.argv[3] && process.argv[3] !== 'all' ? process.argv[3].split(',') : Object.keys(WIDGETS)) as WidgetName[];
const parallel = Number(process.argv[4] ?? 2);

async function main() {
  const browser = await launchChromium(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium');
  const [vulnerable, hardened] = await Promise.all([startWidgetServer(20, labBot('vulnerable')), startWidgetServer(20, labBot('hardened'))]);
  console.log(`browser precision, profile ${profile}: node dist/bench/browser-precision.js ${process.argv.slice(2).join(' ')}`);
  console.log('widget      hardened findings (high+)  recall        missed                      requests (vuln/hard)  seconds (vuln/hard)');
  let falseFindings = 0;
  let found = 0;
  try {
    // per widget, its vulnerable and hardened pages at once in one browser; a line as soon as both are done
    for (const widget of widgets) {
      const [vuln, hard] = await pooled([vulnerable, hardened].map((server) => () => scanPage(`${server.base}/${WIDGETS[widget].page}`, profile, browser, { seed: 'browser-precision' })), parallel);
      const categories = new Set<string>(vuln.vulnerabilities.map((v) => v.category));
      const hit = REACHABLE_CATEGORIES.filter((c) => categories.has(c));
      const missed = REACHABLE_CATEGORIES.filter((c) => !categories.has(c));
      const serious = hard.vulnerabilities.filter((v) => v.severity === 'high' || v.severity === 'critical').length;
      falseFindings += hard.vulnerabilities.length;
      found += hit.length;
      const ended = [vuln, hard].map((s) => (s.outcome === 'completed' ? '' : ` (${s.outcome})`)).join('');
      console.log(
        `${widget.padEnd(11)} ${`${hard.vulnerabilities.length} (${serious})`.padEnd(26)} ${`${hit.length}/${REACHABLE_CATEGORIES.length}`.padEnd(13)} ${(missed.join(',') || '-').padEnd(27)} ${`${vulnerable.prompts[widget].length}/${hardened.prompts[widget].length}`.padEnd(21)} ${vuln.seconds.toFixed(0)}/${hard.seconds.toFixed(0)}${ended}`,
      );
      for (const v of hard.vulnerabilities) console.log(`    hardened ${widget}: ${v.severity} ${v.category} ${v.title} :: ${JSON.stringify(v.evidence?.matched ?? '').slice(0, 160)}`);
    }
    console.log(`total: ${falseFindings} findings on hardened pages; recall ${found}/${widgets.length * REACHABLE_CATEGORIES.length}`);
  } finally {
    await browser.close();
    await Promise.all([vulnerable.close(), hardened.close()]);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
