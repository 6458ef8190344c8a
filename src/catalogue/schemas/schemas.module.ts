import { Module } from '@nestjs/common';
import { KindsModule } from '../kinds/kinds.module';
import { SchemasController } from './schemas.controller';
import { SchemasService } from './schemas.service';

@Module({ imports: [KindsModule], controllers: [SchemasController], providers: [SchemasService] })
export class SchemasModule {}
