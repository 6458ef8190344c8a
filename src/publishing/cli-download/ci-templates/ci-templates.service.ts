import { Inject, Injectable } from '@nestjs/common';
import { notFound } from '../../../common/errors/domain-error';
import { APP_CONFIG } from '../../../config/config.module';
import type { AppConfig } from '../../../config/config.types';
import { CliDownloadService } from '../cli-download.service';
import { forgejoActions } from './forgejo-actions';
import { githubActions } from './github-actions';
import { gitlabCi } from './gitlab-ci';
import { CI_FORGES, type CiAuth, type CiForge, type CiTemplate, type TemplateValues } from './template-values';

const FORGES: Record<
  CiForge,
  { title: string; file: string; path: string; render: (values: TemplateValues) => string; tokenOnly: boolean }
> = {
  github: {
    title: 'GitHub Actions',
    file: 'github-actions.yml',
    path: '.github/workflows/release.yml',
    render: githubActions,
    tokenOnly: false,
  },
  gitlab: { title: 'GitLab CI', file: 'gitlab-ci.yml', path: '.gitlab-ci.yml', render: gitlabCi, tokenOnly: false },
  forgejo: {
    title: 'Forgejo / Gitea Actions',
    file: 'forgejo-actions.yml',
    path: '.forgejo/workflows/release.yml',
    render: forgejoActions,
    tokenOnly: true,
  },
};

/**
 * The publish workflows this registry hands out, rendered on each request with its BASE_URL and
 * the SHA-256 of the CLI bytes it serves at that moment: the pin changes exactly when the served
 * file does.
 */
@Injectable()
export class CiTemplatesService {
  constructor(
    private readonly downloads: CliDownloadService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  all(auth: CiAuth = 'trusted'): { cliSha256: string; templates: CiTemplate[] } {
    const cliSha256 = this.downloads.bundle().sha256;
    return { cliSha256, templates: CI_FORGES.map((forge) => this.render(forge, auth, cliSha256)) };
  }

  byFile(file: string, auth: CiAuth = 'trusted'): CiTemplate {
    const forge = CI_FORGES.find((name) => FORGES[name].file === file);
    if (!forge) throw notFound(`no CI template "${file}": there are ${CI_FORGES.map((name) => FORGES[name].file).join(', ')}`);
    return this.render(forge, auth, this.downloads.bundle().sha256);
  }

  private render(forge: CiForge, wanted: CiAuth, cliSha256: string): CiTemplate {
    const { title, file, path, render, tokenOnly } = FORGES[forge];
    const auth = tokenOnly ? 'token' : wanted;
    const content = render({ baseUrl: this.config.baseUrl, oidcAudience: this.config.oidcAudience, cliSha256, auth });
    return { forge, title, file, path, auth, content };
  }
}
