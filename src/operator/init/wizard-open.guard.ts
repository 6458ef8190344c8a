import { type CanActivate, Injectable } from '@nestjs/common';
import { gone } from '../../common/errors/domain-error';
import { InitService } from './init.service';
import { WIZARD_CLOSED } from './wizard-closed';

/**
 * 410 for every wizard step once an admin exists, before the body is validated or even read
 * (with BodyReadGuard after it): a closed wizard has nothing to say about a body.
 */
@Injectable()
export class WizardOpenGuard implements CanActivate {
  constructor(private readonly init: InitService) {}

  async canActivate(): Promise<boolean> {
    if (await this.init.closed()) throw gone(WIZARD_CLOSED);
    return true;
  }
}
