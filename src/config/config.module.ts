import { type DynamicModule, Global, Module } from '@nestjs/common';
import type { AppConfig } from './config.types';

export const APP_CONFIG = Symbol('APP_CONFIG');

/** Provides the one AppConfig read at start; nothing else reads the environment. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: ConfigModule, providers: [{ provide: APP_CONFIG, useValue: config }], exports: [APP_CONFIG] };
  }
}
