import { wordForm } from './form';

/** no tools: the target is only talked to */
export const noTools = wordForm('none', '"none": no tools');
