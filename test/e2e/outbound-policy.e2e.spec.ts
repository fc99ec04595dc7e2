import { removeDir, signUp, startService } from '../support/service';

// its own file: passport keeps one 'jwt' strategy per module registry, so two services alive at
// once in one test file would verify each other's tokens (one service per process in production)
describe('outbound URL policy at registration', () => {
  const apiTarget = { name: 'Support bot', url: 'http://127.0.0.1:9/v1/chat/completions', scan_mode: 'api', api_format: 'openai' };

  it('refuses target URLs on private addresses when the operator has not allowed them', async () => {
    const strict = await startService({ RATE_LIMIT_PER_MINUTE: '100000', OUTBOUND_ALLOW_PRIVATE: 'false' }, ['api', 'projector']);
    try {
      const { api } = await signUp(strict.url);
      for (const url of ['http://127.0.0.1/x', 'http://10.1.2.3/x', 'http://[::1]/x', 'http://169.254.169.254/latest', 'http://[::ffff:127.0.0.1]/x']) {
        const res = await api.post('/api/targets', { ...apiTarget, url });
        expect(res.status).toBe(400);
        expect(res.body.errors[0].field).toBe('url');
      }
      expect((await api.post('/api/targets', { ...apiTarget, url: 'https://bot.example.com/v1/chat/completions' })).status).toBe(201);
    } finally {
      await strict.stop();
      removeDir(strict.dataDir);
    }
  });

});
