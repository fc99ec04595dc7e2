import { networkInterfaces } from 'node:os';
import { ownListenerPorts, ownListenerRefusal, registerOwnListener } from './own-listeners';

describe('own listeners', () => {
  it('given a registered port, refuses it on loopback, unspecified and mapped forms', () => {
    const forget = registerOwnListener(43_210);
    try {
      for (const address of ['127.0.0.1', '127.9.9.9', '::1', '0.0.0.0', '::', '::ffff:127.0.0.1']) {
        expect(ownListenerRefusal(address, 43_210)).toMatch(/own listeners/);
      }
      expect(ownListenerRefusal('127.0.0.1', 43_211)).toBeNull();
      expect(ownListenerRefusal('93.184.216.34', 43_210)).toBeNull();
    } finally {
      forget();
    }
    expect(ownListenerRefusal('127.0.0.1', 43_210)).toBeNull();
  });

  it('given a registered port, refuses it on the addresses of this machine\'s interfaces', () => {
    const forget = registerOwnListener(43_212);
    try {
      for (const nic of Object.values(networkInterfaces()).flat()) if (nic) expect(ownListenerRefusal(nic.address, 43_212)).not.toBeNull();
    } finally {
      forget();
    }
  });

  it('counts registrations: a port registered twice stays until both forget it; port 0 is ignored', () => {
    const a = registerOwnListener(43_213);
    const b = registerOwnListener(43_213);
    a();
    a();
    expect(ownListenerPorts()).toContain(43_213);
    b();
    expect(ownListenerPorts()).not.toContain(43_213);
    registerOwnListener(0);
    expect(ownListenerPorts()).not.toContain(0);
  });
});
