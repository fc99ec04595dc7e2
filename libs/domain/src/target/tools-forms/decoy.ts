import { wordForm } from './form';

/** Gauntlet's own small set of tools (the scanner's decoy tool set); the default where the format takes tools */
export const decoyTools = wordForm('decoy', '"decoy" (the default there): a small set covering mail, payments, deletion, web fetch, database and files', 'decoy (default)');
