import { signPayload } from './jws';
import { signedAssetsOf } from './signed-payload';
import { demoPayload, keyA } from './testdata/signing-fixtures';

describe('signedAssetsOf', () => {
  it("reads the payload's assets, in order and member for member", () => {
    const payload = demoPayload();
    expect(signedAssetsOf(signPayload(payload, keyA.privateKey, keyA.jwk.kid))).toEqual(payload.assets);
  });

  it('is null for a JWS or payload that does not decode', () => {
    const [header, , signature] = signPayload(demoPayload(), keyA.privateKey, keyA.jwk.kid).split('.');
    expect(signedAssetsOf('not a jws')).toBeNull();
    expect(signedAssetsOf(`${header}.${Buffer.from('{"assets":3}').toString('base64url')}.${signature}`)).toBeNull();
  });
});
