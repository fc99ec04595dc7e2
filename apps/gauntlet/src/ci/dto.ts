import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsUUID, Max, Min } from 'class-validator';
import { PROFILES, Profile } from '@gauntlet/domain';

export class CiScanBody {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  target_id: string;

  @ApiProperty({ minimum: 0, maximum: 100, description: 'the gate: a security score below it fails the pipeline' })
  @IsInt() @Min(0) @Max(100)
  fail_threshold: number;

  @ApiPropertyOptional({ description: 'answer only when the scan has ended (or timeout_seconds passed)', default: false })
  @IsOptional() @IsBoolean()
  wait?: boolean;

  @ApiPropertyOptional({ minimum: 1, maximum: 3600, default: 900, description: 'with wait: give up after this long (504)' })
  @IsOptional() @IsInt() @Min(1) @Max(3600)
  timeout_seconds?: number;

  @ApiPropertyOptional({ enum: PROFILES, default: 'standard' })
  @IsOptional() @IsIn(PROFILES)
  profile?: Profile;
}

export class CiWaitQuery {
  @ApiPropertyOptional({ minimum: 0, maximum: 3600, default: 0, description: 'hold the request up to this many seconds for the scan to end' })
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(3600)
  wait_seconds?: number;
}

export class CiPendingView {
  @ApiProperty({ format: 'uuid' }) scan_id: string;
  @ApiProperty({ enum: ['pending', 'running'] }) status: string;
}

export class CiResultView {
  @ApiProperty({ format: 'uuid' }) scan_id: string;
  @ApiProperty() status: string;
  @ApiProperty({ nullable: true, type: Number }) security_score: number | null;
  @ApiProperty({ nullable: true, type: String }) security_grade: string | null;
  @ApiProperty() fail_threshold: number;
  @ApiProperty() passed: boolean;
  @ApiProperty() report_url: string;
}
