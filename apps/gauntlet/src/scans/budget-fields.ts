import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, ValidateBy } from 'class-validator';
import { BudgetField, budgetFieldSchema, budgetValueProblem } from '@gauntlet/domain';

/**
 * One field of a scan's budget in a request body: described and checked by its owner in the domain
 * (BUDGET_FIELDS), so the OpenAPI document, the validation and the decider say the same. The rules
 * between fields (max_cost needs prices) are the decider's.
 */
export function BudgetProperty(field: BudgetField): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional(budgetFieldSchema(field)),
    IsOptional(),
    ValidateBy({
      name: 'budgetValue',
      constraints: [field],
      validator: {
        validate: (value: unknown) => budgetValueProblem(field, value) === null,
        defaultMessage: (args) => `${field} ${budgetValueProblem(field, args?.value) ?? 'is not valid'}`,
      },
    }),
  );
}

/** The budget's fields, for a body that takes them (a scan request, a schedule). */
export class BudgetFields {
  @BudgetProperty('max_requests') max_requests?: number;
  @BudgetProperty('max_tokens') max_tokens?: number;
  @BudgetProperty('max_cost') max_cost?: number;
  @BudgetProperty('price_in') price_in?: number;
  @BudgetProperty('price_out') price_out?: number;
}
