import { connect, Socket } from 'node:net';
import type { ISocketFactory } from 'kafkajs';

/**
 * kafkajs's socket factory plus a register of the sockets it opened. After a broker restart
 * kafkajs can lose track of a connection (or of a component that reconnects), and disconnect()
 * then leaves a socket and its request-timeout timer behind, keeping the process alive
 * (tulios/kafkajs#1147, #1639). closeAll() ends what is left, with an error so kafkajs runs
 * its own cleanup for that connection, and refuses new sockets from then on.
 */
export function trackedSockets(): { factory: ISocketFactory; closeAll(): number } {
  const open = new Set<Socket>();
  let closed = false;
  const factory: ISocketFactory = ({ host, port, onConnect }) => {
    if (closed) {
      const refused = new Socket();
      process.nextTick(() => refused.destroy(new Error('the bus is closed')));
      return refused;
    }
    const socket = connect({ host, port }, onConnect);
    socket.setKeepAlive(true, 60_000);
    open.add(socket);
    socket.once('close', () => open.delete(socket));
    return socket;
  };
  return {
    factory,
    closeAll: () => {
      closed = true;
      const left = open.size;
      for (const socket of open) socket.destroy(new Error('closed with the bus'));
      open.clear();
      return left;
    },
  };
}
