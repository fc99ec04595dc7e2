import { customHeaders, customHeadersProblem, HeaderPairs, headerPairs, withCustomHeaders } from './headers';

describe('custom headers a gateway needs', () => {
  it('takes names and values HTTP allows', () => {
    expect(customHeadersProblem({ 'x-gateway-key': 'abc', 'Ocp-Apim-Subscription-Key': 'k', authorization: 'Bearer t' })).toBeNull();
  });
  it('refuses what would reframe or redirect the request, line breaks, and too many', () => {
    expect(customHeadersProblem({ Host: 'evil.example' })).toMatch(/set by HTTP/);
    expect(customHeadersProblem({ 'content-length': '1' })).toMatch(/set by HTTP/);
    expect(customHeadersProblem({ 'proxy-authorization': 'x' })).toMatch(/set by HTTP/);
    expect(customHeadersProblem({ 'x-a': 'one\r\nx-injected: two' })).toMatch(/without line breaks/);
    expect(customHeadersProblem({ 'bad name': 'x' })).toMatch(/not a header name/);
    expect(customHeadersProblem({ 'x-a': 1 })).toMatch(/must be text/);
    expect(customHeadersProblem({ 'X-A': '1', 'x-a': '2' })).toMatch(/twice/);
    expect(customHeadersProblem(Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`x-${i}`, 'v'])))).toMatch(/at most 20/);
    expect(customHeadersProblem(['x'])).toMatch(/object/);
  });
});

describe('custom headers as data, not as object keys', () => {
  it('given names every object inherits, when taken as pairs, then they are headers like any other', () => {
    const body = JSON.parse('{"constructor":"a","__defineGetter__":"b","toString":"c","hasOwnProperty":"d"}');
    const pairs = headerPairs(body) as HeaderPairs;
    expect(customHeadersProblem(pairs)).toBeNull();
    const record = customHeaders(pairs);
    expect(Object.getPrototypeOf(record)).toBeNull();
    expect(Object.keys(record)).toEqual(['constructor', '__defineGetter__', 'toString', 'hasOwnProperty']);
    expect(record.constructor).toBe('a');
    // and a record with no inherited keys has nothing the user did not give
    expect(customHeaders([])['constructor' as string]).toBeUndefined();
  });

  it('refuses pairs that are not [name, value]', () => {
    expect(customHeadersProblem([['x-a']])).toMatch(/object/);
    expect(customHeadersProblem([[1, 'v']])).toMatch(/object/);
    expect(customHeadersProblem('x-a: 1')).toMatch(/object/);
  });
});

describe('the headers a request goes out with', () => {
  it.each([
    ['authorization', 'Authorization', 'Bearer sk-ours'],
    ['x-api-key', 'X-API-KEY', 'ours'],
    ['api-key', 'Api-Key', 'ours'],
    ['x-goog-api-key', 'X-Goog-Api-Key', 'ours'],
  ])('given a custom %s spelled %s, when merged, then it replaces the built-in one instead of going beside it', (builtIn, custom) => {
    const merged = withCustomHeaders({ 'content-type': 'application/json', [builtIn]: 'ours' }, { [custom]: 'the gateway key' });
    const named = Object.keys(merged).filter((n) => n.toLowerCase() === builtIn);
    expect(named).toEqual([custom]);
    expect(merged[custom]).toBe('the gateway key');
    expect(merged['content-type']).toBe('application/json');
  });

  it('keeps built-in headers no custom one names, and has no inherited keys', () => {
    const merged = withCustomHeaders({ authorization: 'Bearer k' }, null);
    expect(merged).toEqual(Object.assign(Object.create(null), { authorization: 'Bearer k' }));
    expect(Object.getPrototypeOf(merged)).toBeNull();
  });
});
