import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, IsIn, IsString, MaxLength, MinLength } from 'class-validator';
import { PLANS, Plan } from '@gauntlet/domain';
import { CleanText } from '../http/clean-text';

export class RegisterBody {
  @ApiProperty({ example: 'ada@example.com', maxLength: 254 })
  @IsEmail() @MaxLength(254)
  email: string;

  @ApiProperty({ minLength: 12, maxLength: 256 })
  @IsString() @MinLength(12) @MaxLength(256)
  password: string;
}

export class LoginBody {
  @ApiProperty({ example: 'ada@example.com' })
  @IsString() @MaxLength(254)
  email: string;

  @ApiProperty()
  @IsString() @MaxLength(256)
  password: string;
}

export class AccountView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() email: string;
  @ApiProperty({ enum: PLANS }) plan: Plan;
}

export class MeView extends AccountView {
  @ApiProperty({ enum: ['admin', 'member'] }) role: string;
}

export class TokenView {
  @ApiProperty() access_token: string;
  @ApiProperty({ enum: ['bearer'] }) token_type: 'bearer';
  @ApiProperty({ description: 'seconds until the token expires' }) expires_in: number;
}

export class CreateApiKeyBody {
  @ApiProperty({ example: 'ci-pipeline', minLength: 1, maxLength: 100 })
  @IsString() @CleanText() @MinLength(1) @MaxLength(100)
  name: string;
}

export class ApiKeyView {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'public part of the key, shown in lists to tell keys apart' }) prefix: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

export class CreatedApiKeyView extends ApiKeyView {
  @ApiProperty({ description: 'the key itself: shown only in this response, stored hashed' }) key: string;
}

export class ApiKeyList {
  @ApiProperty({ type: [ApiKeyView] }) api_keys: ApiKeyView[];
}

export class ChangePlanBody {
  @ApiProperty({ enum: PLANS })
  @IsIn(PLANS)
  plan: Plan;
}
