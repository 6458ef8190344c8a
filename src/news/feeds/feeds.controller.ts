import { applyDecorators, Controller, Get, Header, Param, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiNotModifiedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { NoQueryPipe } from '../../common/validation/no-query.pipe';
import { SlugPipe } from '../../common/validation/slug.pipe';
import { ATOM_CONTENT_TYPE } from '../../lib/atom/atom';
import { ApiPublic } from '../../openapi/api-public';
import { ApiReadLimited } from '../../openapi/api-problems';
import { ProblemDto } from '../../openapi/problem.dto';
import { FeedsService } from './feeds.service';

/**
 * What every feed route answers: Atom, its caching, the 304 of a matching `If-None-Match`, and a
 * 400 for any query parameter (feeds take none; `badRequest` adds what else that route refuses).
 */
function AtomFeed(summary: string, description: string, badRequest = ''): MethodDecorator {
  return applyDecorators(
    Header('Content-Type', ATOM_CONTENT_TYPE),
    Header('Cache-Control', 'public, max-age=300'),
    ApiOperation({
      summary,
      description: `${description} The newest 50 releases that are not yanked, newest first. Sent with an ETag; a matching If-None-Match is answered 304.`,
    }),
    ApiPublic(),
    ApiOkResponse({ description: 'An Atom 1.0 feed (RFC 4287)', content: { 'application/atom+xml': { schema: { type: 'string' } } } }),
    ApiNotModifiedResponse({ description: 'Not modified: the If-None-Match given names the current ETag' }),
    ApiBadRequestResponse({ type: ProblemDto, description: `A query parameter: feeds take none${badRequest}` }),
    ApiReadLimited(),
  );
}

/** Atom feeds of new releases ([web](../../docs/web.md#feeds)). */
@ApiTags('feeds')
@Controller('feeds')
export class FeedsController {
  constructor(private readonly feeds: FeedsService) {}

  @Get('releases.atom')
  @AtomFeed('Feed of new releases', 'New releases of every plugin in the catalogue.')
  catalogue(@Query(NoQueryPipe) _query: Record<string, never>): Promise<string> {
    return this.feeds.catalogue();
  }

  @Get('kinds/:key.atom')
  @AtomFeed('Feed of new releases of a kind', 'New releases of the plugins of one enabled kind.')
  @ApiNotFoundResponse({ type: ProblemDto, description: 'No such kind, or it is disabled' })
  kind(@Param('key') key: string, @Query(NoQueryPipe) _query: Record<string, never>): Promise<string> {
    return this.feeds.kind(key);
  }

  @Get('plugins/:slug.atom')
  @AtomFeed(
    'Feed of new releases of a plugin',
    "New releases of one plugin; the subtitle is the plugin's description.",
    ', or a slug that cannot exist',
  )
  @ApiNotFoundResponse({ type: ProblemDto, description: 'No such plugin' })
  plugin(@Param('slug', SlugPipe) slug: string, @Query(NoQueryPipe) _query: Record<string, never>): Promise<string> {
    return this.feeds.plugin(slug);
  }

  @Get('owners/:instance/:login.atom')
  @AtomFeed(
    'Feed of new releases by an owner',
    'New releases of the plugins an owner publishes, the owner named as plugin pages name them: a login on a forge instance (`local` for accounts made on this registry).',
  )
  @ApiNotFoundResponse({ type: ProblemDto, description: 'Nobody by that login on that instance owns a plugin' })
  owner(
    @Param('instance') instance: string,
    @Param('login') login: string,
    @Query(NoQueryPipe) _query: Record<string, never>,
  ): Promise<string> {
    return this.feeds.owner(instance, login);
  }
}
