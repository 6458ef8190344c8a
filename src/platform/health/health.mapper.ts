import type { ReadinessDto } from './dto/health.dto';
import type { ReadinessReport } from './health.service';

export function toReadinessDto(report: ReadinessReport): ReadinessDto {
  return {
    status: report.ready ? 'ok' : 'unavailable',
    database: report.database,
    migrations: report.migrations,
    ...(report.replicas
      ? { replicas: report.replicas.map((replica) => ({ index: replica.index, state: replica.state, since: replica.since.getTime() })) }
      : {}),
  };
}
