import { Injectable } from '@nestjs/common';
import { APP_VERSION } from '../common/app-info';
import { SettingsService } from '../settings/settings.service';
import { renderHomePage } from './home.page';

/** The page at `/` until the web front end lands: what this is and where its API lives. */
@Injectable()
export class HomeService {
  constructor(private readonly settings: SettingsService) {}

  async page(): Promise<string> {
    const siteName = await this.settings.get('site.name');
    return renderHomePage({ siteName, version: APP_VERSION });
  }
}
