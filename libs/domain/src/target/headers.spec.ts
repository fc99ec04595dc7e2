import { customHeadersProblem } from './headers';

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
