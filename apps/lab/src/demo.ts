import { loadConfig } from '../../gauntlet/src/config/config';
import { startRoles } from '../../gauntlet/src/main';
import { createLogger } from '../../gauntlet/src/platform/logger';
import { createRuntime } from '../../gauntlet/src/runtime';
import { startLab } from './lab';

/**
 * `npm run demo`: Gauntlet (embedded, DATA_DIR ./data-demo) and the vulnerable lab, a standard
 * scan of the lab through the public API, then the grade and where the reports are. Both keep
 * running so the links work; Ctrl-C stops them.
 */
async function main() {
  const lab = await startLab({ port: Number(process.env.LAB_PORT ?? 8088), mode: 'vulnerable' });
  const config = loadConfig({ ...process.env, DATA_DIR: process.env.DATA_DIR ?? './data-demo', OUTBOUND_ALLOW_PRIVATE: 'true', LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn', SCAN_QUOTA_FREE: 'unlimited' });
  const runtime = await createRuntime(config, createLogger(config.logLevel));
  await startRoles(runtime, ['all']);
  const base = config.publicBaseUrl;
  const call = async (path: string, body?: unknown, token?: string) => {
    const res = await fetch(base + path, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return res.json() as Promise<any>;
  };

  const email = 'demo@gauntlet.local';
  const password = 'demo-password-123';
  await call('/api/auth/register', { email, password }); // 409 on a second run: fine
  const { access_token: token } = await call('/api/auth/login', { email, password });
  const target = await call('/api/targets', { name: 'Penny, the lab support bot', url: `${lab.url}/v1/chat/completions`, scan_mode: 'api', api_format: 'openai', model: 'penny-lab', canaries: [lab.canaries.system, lab.canaries.data] }, token);
  const scan = await call('/api/scans', { target_id: target.id, profile: 'standard' }, token);
  console.log(`lab:      ${lab.url}  (chat page at /)`);
  console.log(`gauntlet: ${base}  (dashboard at /app, sign in as ${email} / ${password})`);
  console.log(`scanning ${target.name} (scan ${scan.id})`);

  let status: any;
  for (let i = 0; i < 600; i++) {
    status = await call(`/api/scans/${scan.id}/status`, undefined, token);
    process.stdout.write(`\r  ${status.phase.padEnd(8)} ${String(status.progress).padStart(3)}%  findings ${status.findings_so_far}   `);
    if (!['pending', 'running'].includes(status.status)) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  console.log('');
  if (status.status !== 'completed' && status.status !== 'completed_partial') {
    console.log(`the scan ended ${status.status}`);
  } else {
    const score = await call(`/api/scans/${scan.id}/score`, undefined, token);
    console.log(`grade ${score.grade} (${score.overall_score}/100): ${score.critical_count} critical, ${score.high_count} high, ${score.medium_count} medium, ${score.low_count} low`);
    console.log(`scan:      ${base}/app/scans/${scan.id}`);
    console.log(`report:    ${base}/api/scans/${scan.id}/report?format=json   (pdf, csv, markdown, html on the pro plan)`);
    console.log(`evidence:  ${base}/api/scans/${scan.id}/compliance-evidence`);
  }
  console.log('Ctrl-C to stop.');
  const stop = async () => {
    await runtime.close();
    await lab.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((err) => {
  console.error(`demo failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
