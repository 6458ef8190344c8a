import { Body, Controller, Get, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Type } from 'class-transformer';
import { IsArray, IsInt, IsString, Length, Max, Min, ValidateNested } from 'class-validator';
import request from 'supertest';
import { configureHttp } from '../../src/app.factory';
import { CommonModule } from '../../src/common/common.module';
import { conflict, invalid } from '../../src/common/errors/domain-error';
import { createLogger } from '../../src/common/logging/logger';
import { loadConfig } from '../../src/config/config';
import { ConfigModule } from '../../src/config/config.module';

class ItemDto {
  @IsString()
  @Length(1, 10)
  name: string;
}

class CreateThingDto {
  @IsInt()
  @Min(1)
  @Max(100)
  limit: number;

  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => ItemDto)
  items: ItemDto[];
}

@Controller('things')
class ThingsController {
  @Post()
  create(@Body() body: CreateThingDto) {
    return { ok: true, limit: body.limit };
  }

  @Get('conflict')
  clash() {
    throw conflict('version-exists', 'version 1.0.0 of demo is already published');
  }

  @Get('invalid')
  bad() {
    throw invalid('manifest-invalid', 'the manifest has 2 violations', [
      { path: '/name', message: 'name: is required' },
      { path: '/tags/3', message: 'tags/3: must be at most 30 characters' },
    ]);
  }

  @Get('crash')
  crash() {
    throw new Error('password=hunter2 at db.internal:5432');
  }
}

@Module({ controllers: [ThingsController] })
class ThingsModule {}

describe('the shared HTTP pipeline', () => {
  let app: NestExpressApplication;
  const config = loadConfig({ NODE_ENV: 'test' });

  beforeAll(async () => {
    @Module({ imports: [ConfigModule.forRoot(config), CommonModule, ThingsModule] })
    class TestModule {}
    app = await NestFactory.create<NestExpressApplication>(TestModule, { logger: false, bodyParser: false });
    configureHttp(app, config, createLogger('silent'));
    await app.init();
  });
  afterAll(() => app.close());

  it('answers request validation failures 400 with one error per violated field', async () => {
    const res = await request(app.getHttpServer())
      .post('/things')
      .send({ limit: 0, items: [{ name: 'ok' }, { name: 'far too long a name' }], extra: true })
      .expect(400);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body.type).toBe(`${config.baseUrl}/problems/validation-failed`);
    const paths = res.body.errors.map((e: { path: string }) => e.path).sort();
    expect(paths).toEqual(['/extra', '/items/1/name', '/limit']);
  });

  it('accepts a valid body', async () => {
    await request(app.getHttpServer()).post('/things').send({ limit: 5, items: [] }).expect(201, { ok: true, limit: 5 });
  });

  it('maps typed domain errors to their status in one place', async () => {
    const c = await request(app.getHttpServer()).get('/things/conflict').expect(409);
    expect(c.body).toEqual({
      type: `${config.baseUrl}/problems/version-exists`,
      title: 'Conflict',
      status: 409,
      detail: 'version 1.0.0 of demo is already published',
    });
    const i = await request(app.getHttpServer()).get('/things/invalid').expect(422);
    expect(i.body.errors).toHaveLength(2);
  });

  it('never lets an internal message or stack trace out', async () => {
    const res = await request(app.getHttpServer()).get('/things/crash').expect(500);
    expect(res.body).toEqual({
      type: `${config.baseUrl}/problems/internal`,
      title: 'Internal Server Error',
      status: 500,
      detail: 'the server could not complete the request',
    });
    expect(res.text).not.toMatch(/hunter2|db\.internal|at /);
  });
});
