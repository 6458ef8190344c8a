import { PasskeyCredentialEntity } from './passkey-credential.entity';
import { SignInLinkEntity } from './sign-in-link.entity';
import { UserPasswordEntity } from './user-password.entity';
import { WebAuthnChallengeEntity } from './webauthn-challenge.entity';

/** The tables this feature owns; src/database/entities.ts gathers every feature's list. */
export const LOCAL_SIGN_IN_ENTITIES = [PasskeyCredentialEntity, WebAuthnChallengeEntity, UserPasswordEntity, SignInLinkEntity];
