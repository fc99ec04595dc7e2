import { cancellation, cancelledBy } from './cancellation';

const directory = { emails: new Map([['a1', 'ada@example.com']]), apiKeys: new Map([['k1', 'ci-pipeline']]) };

describe('who cancelled a scan, as people read it', () => {
  it('names an account by its e-mail and an API key by its name, keeping the id', () => {
    expect(cancellation('account:a1', directory)).toEqual({ cancelled_by: 'account:a1', cancelled_by_name: 'ada@example.com', reason: 'cancelled by ada@example.com' });
    expect(cancellation('apikey:k1', directory)).toEqual({ cancelled_by: 'apikey:k1', cancelled_by_name: 'API key ci-pipeline', reason: 'cancelled by API key ci-pipeline' });
  });

  it('shows an actor it cannot name (a deleted key) as recorded', () => {
    expect(cancellation('apikey:gone', directory).reason).toBe('cancelled by apikey:gone');
  });

  it('reads the actor from the read model, or from the reason of a document projected before it was kept', () => {
    expect(cancelledBy({ status: 'cancelled', reason: 'cancelled by account:a1', cancelled_by: 'account:a1' })).toBe('account:a1');
    expect(cancelledBy({ status: 'cancelled', reason: 'cancelled by apikey:k1' })).toBe('apikey:k1');
    expect(cancelledBy({ status: 'cancelled', reason: null })).toBeNull();
    expect(cancelledBy({ status: 'failed', reason: 'cancelled by account:a1' })).toBeNull();
  });
});
