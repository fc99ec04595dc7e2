import { Body, Controller, Delete, Get, HttpCode, Inject, Param, ParseUUIDPipe, Post, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { JwtService } from '@nestjs/jwt';
import { ApiBearerAuth, ApiConflictResponse, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { decoyPasswordHash, normaliseEmail, verifyPassword } from '@gauntlet/auth';
import { ProblemException } from '../http/problem';
import { Ctx } from '../http/context';
import { CommandContext } from '../platform/write-path';
import type { Config } from '../config/config';
import { CONFIG } from '../platform/tokens';
import { AccountReader } from './account-reader';
import { ChangePlan } from './changing-plan/change-plan';
import { AccountView, ApiKeyList, ChangePlanBody, CreateApiKeyBody, CreatedApiKeyView, LoginBody, MeView, RegisterBody, TokenView } from './dto';
import { IssueApiKey, IssuedApiKey } from './issuing-api-key/issue-api-key';
import { AdminOnly, BearerOnly, CurrentPrincipal, Principal, Public } from '../http/principal';
import { RegisterAccount, RegisteredAccount } from './registering-account/register-account';
import { RevokeApiKey } from './revoking-api-key/revoke-api-key';

@ApiTags('accounts')
@Controller('api')
export class AuthController {
  constructor(private readonly commands: CommandBus, private readonly jwt: JwtService, private readonly accounts: AccountReader, @Inject(CONFIG) private readonly config: Config) {}

  @Public()
  @Post('auth/register')
  @ApiOperation({ summary: 'Create an account (plan free)' })
  @ApiCreatedResponse({ type: AccountView })
  @ApiConflictResponse({ description: 'an account with this email already exists' })
  register(@Body() body: RegisterBody, @Ctx() ctx: CommandContext): Promise<RegisteredAccount> {
    return this.commands.execute(new RegisterAccount({ email: body.email, password: body.password, plan: 'free', role: 'member', context: { ...ctx, actor: 'anonymous' } }));
  }

  @Public()
  @Post('auth/login')
  @HttpCode(200)
  @ApiOperation({ summary: 'Exchange email and password for a bearer token' })
  @ApiOkResponse({ type: TokenView })
  @ApiUnauthorizedResponse({ description: 'email or password is wrong (the same answer for an unknown email)' })
  async login(@Body() body: LoginBody): Promise<TokenView> {
    const account = await this.accounts.byEmail(normaliseEmail(body.email));
    // an unknown email costs as much as a wrong password: no account enumeration by timing
    const ok = await verifyPassword(body.password, account?.password_hash ?? (await decoyPasswordHash()));
    if (!account || !ok) throw new ProblemException(401, 'Email or password is wrong.');
    const expires_in = this.config.jwtTtlSeconds;
    const access_token = await this.jwt.signAsync({ sub: account._id }, { expiresIn: expires_in, issuer: 'gauntlet', audience: 'gauntlet-api', algorithm: 'HS256' });
    return { access_token, token_type: 'bearer', expires_in };
  }

  @Get('account')
  @ApiBearerAuth() @ApiSecurity('api_key')
  @ApiOperation({ summary: 'The calling account' })
  @ApiOkResponse({ type: MeView })
  me(@CurrentPrincipal() p: Principal): MeView {
    return { id: p.account_id, email: p.email, plan: p.plan, role: p.role };
  }

  @BearerOnly()
  @Post('api-keys')
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Issue an API key (shown once)' })
  @ApiCreatedResponse({ type: CreatedApiKeyView })
  issueKey(@CurrentPrincipal() p: Principal, @Body() body: CreateApiKeyBody, @Ctx() ctx: CommandContext): Promise<IssuedApiKey> {
    return this.commands.execute(new IssueApiKey({ account_id: p.account_id, name: body.name, context: ctx }));
  }

  @BearerOnly()
  @Get('api-keys')
  @ApiBearerAuth()
  @ApiOperation({ summary: 'List the active API keys of the account (never the keys themselves)' })
  @ApiOkResponse({ type: ApiKeyList })
  async listKeys(@CurrentPrincipal() p: Principal): Promise<ApiKeyList> {
    const keys = await this.accounts.activeApiKeys(p.account_id);
    return { api_keys: keys.map((k) => ({ id: k._id, name: k.name, prefix: k.prefix, created_at: k.created_at })) };
  }

  @BearerOnly()
  @Delete('api-keys/:id')
  @HttpCode(204)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Revoke an API key' })
  @ApiNoContentResponse()
  revokeKey(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string, @Ctx() ctx: CommandContext): Promise<void> {
    return this.commands.execute(new RevokeApiKey({ account_id: p.account_id, api_key_id: id, context: ctx }));
  }

  @BearerOnly() @AdminOnly()
  @Put('admin/accounts/:id/plan')
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Change the plan of an account (administrators)' })
  @ApiOkResponse({ type: AccountView })
  async changePlan(@Param('id', new ParseUUIDPipe()) id: string, @Body() body: ChangePlanBody, @Ctx() ctx: CommandContext): Promise<AccountView> {
    await this.commands.execute(new ChangePlan({ account_id: id, plan: body.plan, context: ctx }));
    const account = await this.accounts.get(id);
    if (!account) throw new ProblemException(404, 'Account not found.');
    return { id, email: account.email, plan: account.plan };
  }
}
