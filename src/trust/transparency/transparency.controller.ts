import { Controller, Get, Header, Param, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { ApiReadLimited, ApiUpstreamLog } from '../../openapi/api-problems';
import { ApiPublic } from '../../openapi/api-public';
import { ProblemDto } from '../../openapi/problem.dto';
import {
  ConsistencyProofDto,
  ConsistencyProofQueryDto,
  InclusionProofDto,
  InclusionProofQueryDto,
  LogEntryDto,
  LogEntryParamsDto,
  LogKeyDto,
} from './dto/log.dto';
import { TransparencyService } from './transparency.service';

const NOTE_BODY = {
  description: 'The signed checkpoint: a C2SP signed note (origin, size, base64 root hash; then the signature line)',
  content: { 'text/plain': { schema: { type: 'string' } } },
};
const UPSTREAM_404 = {
  type: ProblemDto,
  description: "On a mirror (MIRROR_OF), which serves its upstream's log: upstream's 404, passed on",
};

@ApiTags('transparency-log')
@Controller('api/log')
export class TransparencyController {
  constructor(private readonly log: TransparencyService) {}

  @Get('head')
  @Header('Content-Type', 'text/plain; charset=utf-8')
  @Header('Cache-Control', 'no-cache')
  @ApiOperation({
    summary: "The log's signed tree head",
    description:
      "A C2SP tlog-checkpoint in a C2SP signed note, signed with the registry's current Ed25519 release-signing key; the note key's name is the origin, its key the `x` of a key in /.well-known/registry-key.json (see GET /api/log/key). The same as GET /log/checkpoint. A mirror (MIRROR_OF) serves its upstream's log read-only, as upstream signed it: every /api/log and /log route there answers upstream's bytes (head kept at most a few seconds).",
  })
  @ApiProduces('text/plain')
  @ApiOkResponse(NOTE_BODY)
  @ApiNotFoundResponse(UPSTREAM_404)
  @ApiPublic()
  @ApiReadLimited()
  @ApiUpstreamLog()
  head(): Promise<string> {
    return this.log.checkpoint();
  }

  @Get('key')
  @Header('Cache-Control', 'public, max-age=300')
  @ApiOperation({
    summary: "The log's origin and note verifier keys",
    description: 'One verifier key per key of the published key set, current first: a checkpoint verifies with one of them.',
  })
  @ApiOkResponse({ type: LogKeyDto })
  @ApiNotFoundResponse(UPSTREAM_404)
  @ApiPublic()
  @ApiReadLimited()
  @ApiUpstreamLog()
  key(): Promise<LogKeyDto> {
    return this.log.key();
  }

  @Get('proof/inclusion')
  @Header('Cache-Control', 'public, max-age=60')
  @ApiOperation({
    summary: 'An inclusion proof',
    description: 'RFC 9162 inclusion proof of leaf `index` in the tree of `size` leaves (default: the current head).',
  })
  @ApiOkResponse({ type: InclusionProofDto })
  @ApiBadRequestResponse({
    type: ProblemDto,
    description: 'An index or size that is not a whole number, an index not below size, or a size past the head; `errors` names the field',
  })
  @ApiNotFoundResponse(UPSTREAM_404)
  @ApiPublic()
  @ApiReadLimited()
  @ApiUpstreamLog()
  inclusion(@Query() query: InclusionProofQueryDto): Promise<InclusionProofDto> {
    return this.log.inclusion(query.index, query.size);
  }

  @Get('proof/consistency')
  @Header('Cache-Control', 'public, max-age=300')
  @ApiOperation({
    summary: 'A consistency proof',
    description: 'RFC 9162 consistency proof that the tree of `from` leaves is a prefix of the tree of `to` leaves.',
  })
  @ApiOkResponse({ type: ConsistencyProofDto })
  @ApiBadRequestResponse({
    type: ProblemDto,
    description: 'A from or to that is not a whole number, from after to, or to past the head; `errors` names the field',
  })
  @ApiNotFoundResponse(UPSTREAM_404)
  @ApiPublic()
  @ApiReadLimited()
  @ApiUpstreamLog()
  consistency(@Query() query: ConsistencyProofQueryDto): Promise<ConsistencyProofDto> {
    return this.log.consistency(query.from, query.to);
  }

  @Get('entries/:index')
  @Header('Cache-Control', 'public, max-age=31536000, immutable')
  @ApiOperation({ summary: 'One log entry, decoded', description: 'An entry never changes once in the log.' })
  @ApiOkResponse({ type: LogEntryDto })
  @ApiBadRequestResponse({ type: ProblemDto, description: 'An index that is not a whole number' })
  @ApiNotFoundResponse({ type: ProblemDto, description: 'An index past the head' })
  @ApiPublic()
  @ApiReadLimited()
  @ApiUpstreamLog()
  entry(@Param() params: LogEntryParamsDto): Promise<LogEntryDto> {
    return this.log.entry(params.index);
  }
}
