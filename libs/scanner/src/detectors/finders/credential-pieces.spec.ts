import { findCredentialPieces } from './credential-pieces';

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
