import { randomTexts } from '../../../testing/random-texts';
import { findCredentialPieces, loginPairs, prefixedKeys, urlsLike, usersAt } from './credential-pieces';

describe('credential pieces', () => {
  it('cuts a database URL into the parts that survive garbling, and says when it was whole', () => {
    const [whole] = findCredentialPieces('It is postgres://clinic_admin:Lk7!vQ2p@db.lakeside.internal:5432/records.');
    expect(whole).toMatchObject({ shape: 'database URL', value: 'postgres://clinic_admin:Lk7!vQ2p@db.lakeside.internal:5432/records', whole: true, names: 'clinic_admin@db.lakeside.internal' });
    expect(whole.anchors).toEqual(['user:clinic_admin', 'scheme-user:postgres://clinic_admin', 'user-host:clinic_admin@db.lakeside.internal', 'host:db.lakeside.internal']);
    const [garbled] = findCredentialPieces('the URL is postgres://clinic_admin:5432/records');
    expect(garbled).toMatchObject({ whole: false, anchors: ['user:clinic_admin', 'scheme-user:postgres://clinic_admin'] });
    const [placeholder] = findCredentialPieces('use postgres://clinic_admin:<password>@db.lakeside');
    expect(placeholder).toMatchObject({ whole: false, anchors: expect.arrayContaining(['user-host:clinic_admin@db.lakeside', 'host:db.lakeside']) });
    const [user] = findCredentialPieces('log in as clinic_admin@… with the usual password');
    expect(user).toMatchObject({ shape: 'login', value: 'clinic_admin@', anchors: ['user:clinic_admin'], whole: false });
  });

  it('an e-mail given with its password is a login; a key is anchored by its first characters', () => {
    const [login] = findCredentialPieces('Account: jan.novak@lakeside.org:Winter2024! (do not share)');
    expect(login).toMatchObject({ shape: 'login', value: 'jan.novak@lakeside.org:Winter2024!', whole: true, names: 'jan.novak@lakeside.org' });
    const [cut] = findCredentialPieces('key sk-proj-Lb7Qm2Xv9R…');
    expect(cut).toMatchObject({ shape: 'openai-api-key', whole: false, anchors: ['key:sk-proj-lb7qm2xv'] });
  });

  it('stock examples are no piece: admin, localhost, example hosts, placeholder passwords, web addresses', () => {
    expect(findCredentialPieces('e.g. postgres://admin:password@localhost:5432/mydb or mysql://user:pass@db.example.com/app')).toEqual([]);
    expect(findCredentialPieces('see https://lakeside.org/contact and email us')).toEqual([]);
    expect(findCredentialPieces('user@example.com:changeme')).toEqual([]);
  });
});

describe('credential pieces in linear time', () => {
  const SCHEMES = 'postgres(?:ql)?|mysql|mariadb|mongodb(?:\\+srv)?|redis|rediss|amqps?|mssql|sqlserver|oracle|jdbc:[a-z]+|ldaps?|smtps?|s?ftp|couchdb|cassandra|neo4j|clickhouse|snowflake|cockroachdb';
  const same = (found: Iterable<{ 0: string; 1: string; 2: string; index: number }>, pattern: RegExp, text: string) =>
    expect([...found].map((m) => [m.index, m[0], m[1], m[2]])).toEqual([...text.matchAll(pattern)].map((m) => [m.index, m[0], m[1], m[2]]));

  it('finds what each backtracking pattern found, the same matches in the same order', () => {
    const urls = new RegExp(`\\b(${SCHEMES}):\\/\\/((?:[^\\s'"<>\`)\\]]|<[\\w -]{1,20}>)*)`, 'gi');
    for (const text of randomTexts(['mysql', 'jdbc:', 'x', '://', ':', '+srv', 'mongodb', '<pw>', '<', '>', ' ', '"', 'a', '.', '@'])) same(urlsLike(text), urls, text);
    const usersAtPattern = /(?<![\w.+-])([a-z][\w.-]{3,40})@(?:…|\.\.\.|\s|$)/gim;
    for (const text of randomTexts(['a', 'B', '1', '_', '.', '-', '+', '@', ' ', '\n', '…', '...', 'admin', 'x'.repeat(20)])) {
      expect([...usersAt(text)].map((m) => [m.index, m[0], m[1]])).toEqual([...text.matchAll(usersAtPattern)].map((m) => [m.index, m[0], m[1]]));
    }
    const pairs = /(?<![\w.+-])([\w.+-]{2,64}@[a-z0-9-]+(?:\.[a-z0-9-]+)+)\s*[:|]\s*([^\s"'<>,;]{4,64})/gi;
    for (const text of randomTexts(['a', 'B', '1', '.', '-', '+', '@', ' ', ':', '|', 'pass', 'x.io', ',', 'y'.repeat(30)])) same(loginPairs(text), pairs, text);
    const keys = /\b(sk-ant-|sk-proj-|sk-live-|sk-|sk_live_|rk_live_|pk_live_|AKIA|ASIA|ghp_|gho_|github_pat_|xox[abposr]-|AIza|glpat-)([A-Za-z0-9_-]{8,})/g;
    for (const text of randomTexts(['sk-', 'ant-', 'AKIA', 'abcd', '-', '_', ' ', 'x', 'ghp_', 'sk_live_'])) same(prefixedKeys(text), keys, text);
  });

  it('reads long runs of name and host characters once', () => {
    expect(findCredentialPieces('aaaa@ '.repeat(100_000))).toHaveLength(20);
    expect(findCredentialPieces(`a@${'b.'.repeat(200_000)}`)).toEqual([]);
    expect(findCredentialPieces(`postgres://${'.'.repeat(200_000)} `)).toEqual([]);
  });
});
