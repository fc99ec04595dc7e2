import { createServer } from 'node:net';

/**
 * A port near `after` that nothing listens on at `host` now (tried by binding it for a moment),
 * for the "port taken" hints: a suggestion the user can take as it is. Null when none of the next
 * `tries` ports is free (or `after` is 0, any port).
 */
export async function freePortAfter(after: number, host: string, tries = 20): Promise<number | null> {
  for (let port = after + 1; after > 0 && port <= Math.min(65535, after + tries); port++) {
    const free = await new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
  return null;
}
