import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '../common/errors/domain-error';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.types';
import { ForgeRegistry } from '../forges/forge-registry';
import { forgeForUrl } from '../forges/urls';
import { isSigstoreBundle, publicGoodTrustedRoot, type TrustedRootMaterial, verifyProvenance } from '../lib/provenance';
import { KindsService } from '../kinds/kinds.service';
import type { ProvenanceStatus, PublishedBy, StoredAsset } from '../plugins/entities/release.entity';

/** What is recorded with the release, outside the signed list. */
export interface RecordedProvenance {
  status: ProvenanceStatus;
  repository: string | null;
  workflow: string | null;
  ref: string | null;
  issuer: string | null;
  signedAt: Date | null;
}

export interface ProvenanceInput {
  attestation: unknown | null;
  /** The manifest's kind (may require verified provenance). */
  kind: string | undefined;
  /** The plugin's repository (its forge URL). */
  repoUrl: string;
  publishedBy: PublishedBy | undefined;
  assets: readonly StoredAsset[];
}

const POINTER = '/attestation';
const UNCHECKED = { repository: null, workflow: null, ref: null, issuer: null, signedAt: null };

/**
 * Verifies a Sigstore bundle given as the release's attestation (issue 27; the spec itself passes
 * it through unverified): against the public-good root and the operator's roots, for the plugin's
 * repository, the trusted publisher's workflow and every asset's digest. Any other attestation
 * passes through as `unverified`; a kind may require a verified bundle. Offline: no TUF, no Rekor.
 */
@Injectable()
export class IngestProvenance {
  private readonly roots: readonly TrustedRootMaterial[];

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly forges: ForgeRegistry,
    private readonly kinds: KindsService,
  ) {
    this.roots = [publicGoodTrustedRoot(), ...config.provenanceTrustedRoots];
  }

  /** The provenance to record, or a 422 naming the failed check (`provenance: <check>`). */
  async check(input: ProvenanceInput): Promise<RecordedProvenance> {
    const required = input.kind !== undefined && (await this.kinds.requiresProvenance(input.kind));
    if (!isSigstoreBundle(input.attestation)) {
      if (required) {
        const message = `provenance: required: releases of kind "${input.kind}" need a Sigstore provenance bundle (attestation) that verifies`;
        throw new DomainError('invalid', 'provenance-required', `releases of kind "${input.kind}" need verified provenance; nothing was recorded`, [{ path: POINTER, message }], { check: 'required' });
      }
      return { status: input.attestation === null || input.attestation === undefined ? 'absent' : 'unverified', ...UNCHECKED };
    }
    const location = forgeForUrl(input.repoUrl, this.forges.all());
    const trusted = input.publishedBy?.kind === 'trusted' ? input.publishedBy : null;
    const outcome = verifyProvenance(
      input.attestation,
      {
        forge: location?.forge.type ?? 'github',
        repoUrl: location ? `${location.forge.webUrl.replace(/\/+$/, '')}/${location.repoPath}` : input.repoUrl,
        workflow: trusted?.workflow ?? null,
        assets: input.assets.map((asset) => ({ name: asset.name, sha256: asset.hashed ? asset.sha256 : null })),
      },
      this.roots,
    );
    if (!outcome.ok) {
      const message = `provenance: ${outcome.check}: ${outcome.message}`;
      throw new DomainError('invalid', 'provenance-invalid', `the provenance bundle failed the ${outcome.check} check; nothing was recorded`, [{ path: POINTER, message }], { check: outcome.check });
    }
    const { signer } = outcome;
    return { status: 'verified', repository: signer.repository, workflow: signer.workflow, ref: signer.ref, issuer: signer.issuer, signedAt: outcome.signedAt };
  }
}
