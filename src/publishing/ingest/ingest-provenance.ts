import { Inject, Injectable, Logger } from '@nestjs/common';
import { DomainError } from '../../common/errors/domain-error';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.types';
import { ForgeRegistry } from '../../platform/forges/forge-registry';
import { forgeForUrl } from '../../platform/forges/urls';
import {
  checkSubjects,
  expectedIssuers,
  isSigstoreBundle,
  type ProvenanceFailure,
  publicGoodTrustedRoot,
  type TrustedRootMaterial,
  type VerifiedProvenance,
  verifyProvenance,
} from '../../lib/provenance';
import { KindsService } from '../../catalogue/kinds/kinds.service';
import type { ProvenanceStatus, PublishedBy, StoredAsset } from '../../catalogue/plugins/entities/release.entity';

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
}

/**
 * The outcome of the checks that need no asset: a bundle that verified and awaits the
 * subject-digest check, or the status to record when there is no bundle.
 */
export type PendingProvenance = { verified: VerifiedProvenance } | { recorded: RecordedProvenance };

const POINTER = '/attestation';
const UNCHECKED = { repository: null, workflow: null, ref: null, issuer: null, signedAt: null };

/**
 * Verifies a Sigstore bundle given as the release's attestation (the spec itself passes it through
 * unverified; docs/publishing-from-ci.md#build-provenance-sigstore-bundles): against the
 * public-good root and the operator's roots, for the plugin's repository and forge's CI issuer, the
 * trusted publisher's workflow and every asset's digest. Any other attestation passes through as
 * `unverified`; a kind may require a verified bundle. Offline: no TUF, no Rekor. Two steps, so a
 * refused bundle costs no asset download: `verify` before the assets are fetched, `subjects` once
 * they are hashed.
 */
@Injectable()
export class IngestProvenance {
  private readonly logger = new Logger('Provenance');
  private readonly roots: readonly TrustedRootMaterial[];

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly forges: ForgeRegistry,
    private readonly kinds: KindsService,
  ) {
    this.roots = [publicGoodTrustedRoot(), ...config.provenanceTrustedRoots];
    for (const root of config.provenanceTrustedRoots) this.logger.log(`provenance trusted root "${root.name}" is ${root.source}`);
  }

  /** The requirement and every check but subject-digest, or a 422 naming the failed check. */
  async verify(input: ProvenanceInput): Promise<PendingProvenance> {
    const required = input.kind !== undefined && (await this.kinds.requiresProvenance(input.kind));
    if (!isSigstoreBundle(input.attestation)) {
      if (required) {
        const message = `provenance: required: releases of kind "${input.kind}" need a Sigstore provenance bundle (attestation) that verifies`;
        throw new DomainError(
          'invalid',
          'provenance-required',
          `releases of kind "${input.kind}" need verified provenance; nothing was recorded`,
          [{ path: POINTER, message }],
          { check: 'required' },
        );
      }
      return {
        recorded: { status: input.attestation === null || input.attestation === undefined ? 'absent' : 'unverified', ...UNCHECKED },
      };
    }
    const location = forgeForUrl(input.repoUrl, this.forges.all());
    const forge = location?.forge ?? { type: 'github' as const, webUrl: 'https://github.com' };
    const forgeUrl = forge.webUrl.replace(/\/+$/, '');
    const trusted = input.publishedBy?.kind === 'trusted' ? input.publishedBy : null;
    const outcome = verifyProvenance(
      input.attestation,
      {
        forge: forge.type,
        forgeUrl,
        repoUrl: location ? `${forgeUrl}/${location.repoPath}` : input.repoUrl,
        workflow: trusted?.workflow ?? null,
        issuers: expectedIssuers(forge),
      },
      this.roots,
    );
    if (!outcome.ok) this.refuse(outcome);
    return { verified: outcome };
  }

  /** The subject-digest check over the fetched assets; the provenance to record, or a 422. */
  subjects(pending: PendingProvenance, assets: readonly StoredAsset[]): RecordedProvenance {
    if ('recorded' in pending) return pending.recorded;
    const outcome = checkSubjects(
      pending.verified,
      assets.map((asset) => ({ name: asset.name, sha256: asset.hashed ? asset.sha256 : null })),
    );
    if (!outcome.ok) this.refuse(outcome);
    const { signer, signedAt } = pending.verified;
    return {
      status: 'verified',
      repository: signer.repository,
      workflow: signer.workflow,
      ref: signer.ref,
      issuer: signer.issuer,
      signedAt,
    };
  }

  private refuse(outcome: ProvenanceFailure): never {
    const operatorRoot = this.roots.find((root) => root.source !== null && outcome.message.includes(root.name));
    if (operatorRoot) this.logger.warn(`provenance refused (${outcome.check}) by ${operatorRoot.name}, read from ${operatorRoot.source}`);
    const message = `provenance: ${outcome.check}: ${outcome.message}`;
    throw new DomainError(
      'invalid',
      'provenance-invalid',
      `the provenance bundle failed the ${outcome.check} check; nothing was recorded`,
      [{ path: POINTER, message }],
      { check: outcome.check },
    );
  }
}
