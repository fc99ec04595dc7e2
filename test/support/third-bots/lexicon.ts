// What the reader recognises: each concept in several languages and many phrasings, matched on
// folded text (lower case, accents removed). Scripts without word boundaries (Chinese, Japanese,
// Russian) get patterns of their own without \b.

const any = (...res: RegExp[]) => (s: string) => res.some((r) => r.test(s));

// ---------------------------------------------------------------- overriding the bot's rules

export const isOverride = any(
  /\b(ignore|ignoring|disregard|disregarding|forget|bypass|skip|override|overwrite|drop|abandon|neglect|set aside|throw out|discard|cancel|nevermind|never mind)\b[^.?!\n]{0,50}\b(previous|prior|above|earlier|preceding|foregoing|all|any|your|the|these|those|original|initial|system|safety|every|following|above-mentioned)\b[^.?!\n]{0,40}\b(instructions?|directions?|directives?|rules?|prompts?|guidelines?|context|messages?|constraints?|restrictions?|programming|policy|policies|guardrails?|everything|orders?|commands?|text|training|limits|limitations|filters?|settings?|conversation|task)\b/,
  /\b(ignore|disregard|forget) (everything|all of that|all that|that|this|the above|what (i|you) (said|were told))\b/,
  /\bnew (instructions?|rules?|directives?|task|orders?)\s*[:\-]/,
  /\b(stop everything|end of (system )?(prompt|instructions)|instructions? (end|ended) here|system override|admin(istrator)? override|priority override|override (code|mode|protocol))\b/,
  /\b(your (previous|old|original) (instructions|rules|guidelines) (are|have been|were) (void|cancell?ed|revoked|lifted|replaced|suspended|no longer))\b/,
  /\b(you (no longer|don'?t|do not) (have to|need to) (follow|obey|respect) (your|any|the) (rules|instructions|guidelines|policies|restrictions))\b/,
  /\b(ignore[zs]?|oublie[zs]?|ne tiens pas compte|ne tenez pas compte)\b[^.?!\n]{0,50}\b(instructions?|consignes?|regles|directives?|indications?)\b/,
  /\b(ignora|ignore|olvida|olvide|omite|omita|descarta)\b[^.?!\n]{0,50}\b(instrucciones|reglas|indicaciones|directrices|ordenes)\b/,
  /\b(ignorier\w*|vergiss|vergessen sie|missacht\w*|uberschreib\w*)\b[^.?!\n]{0,50}\b(anweisungen|regeln|vorgaben|instruktionen|befehle|richtlinien)\b/,
  /\b(ignora|ignori|dimentica|dimentichi|trascura)\b[^.?!\n]{0,50}\b(istruzioni|regole|indicazioni|direttive)\b/,
  /\b(ignore|ignora|esqueca|esquece|desconsidere|desconsidera)\b[^.?!\n]{0,50}\b(instrucoes|regras|orientacoes|diretrizes)\b/,
  /\b(negeer|vergeet)\b[^.?!\n]{0,50}\b(instructies|regels|aanwijzingen|richtlijnen)\b/,
  /(忽略|无视|忘记|忽视|不要理会|忘掉).{0,12}(指令|指示|说明|规则|提示|设定|要求)/,
  /(игнорируй|игнорируйте|забудь|забудьте|проигнорируй|не обращай внимания|отбрось).{0,50}(инструкци|правил|указани|ограничени)/,
  /(無視|忘れ).{0,12}(指示|命令|ルール|設定)/,
  /(무시|잊어).{0,12}(지시|명령|규칙)/,
);

export const isPersonaSwitch = any(
  /\b(you are now|you're now|from now on,? you (are|will be|will act)|you will now (act|be|play)|act as|acting as|behave as|behave like|pretend (to be|you are|you're|that you)|roleplay|role-play|role play|play the role|take on the (role|persona)|assume the (role|persona)|simulate|impersonate|stay in character)\b/,
  /\b(dan|d\.a\.n|do anything now|stan|dude|aim|evil-?bot|evil confidant|developer mode|dev mode|god ?mode|jailbreak|jailbroken|unfiltered|uncensored|unrestricted|no restrictions|without (any )?(restrictions|filters|limits|rules|guidelines|censorship)|no (rules|limits|filters|guidelines)|opposite mode|anti-?gpt|betterdan|sudo mode|root mode|admin mode|maintenance mode|debug mode|diagnostic mode|test mode|safe ?mode (off|disabled)|unlocked mode)\b/,
  /\b(my (late |dead |deceased )?(grandma|grandmother|granny|nan|grandpa|grandfather) (used to|would))\b/,
  /\b(tu es maintenant|vous etes maintenant|fais semblant|faites semblant|joue le role|jouez le role|agis comme|agissez comme|mode developpeur)\b/,
  /\b(ahora eres|ahora es|finge|finja|actua como|actue como|haz de|modo desarrollador|sin restricciones)\b/,
  /\b(du bist (jetzt|nun|ab sofort)|sie sind (jetzt|nun)|tu so als|spiel die rolle|verhalte dich wie|entwicklermodus|ohne einschrankungen)\b/,
  /\b(ora sei|adesso sei|fingi|fai finta|comportati come|modalita sviluppatore|senza restrizioni)\b/,
  /\b(agora voce e|agora es|finja|finge|aja como|modo desenvolvedor|sem restricoes)\b/,
  /\b(je bent nu|doe alsof|speel de rol|gedraag je als|ontwikkelaarsmodus)\b/,
  /(你现在是|扮演|假装你是|开发者模式|越狱|没有限制)/,
  /(теперь ты|притворись|представь, что ты|играй роль|режим разработчика|без ограничений)/,
  /(あなたは今|なりきって|開発者モード|制限なし)/,
);

// ---------------------------------------------------------------- asking for the bot's own prompt

const PROMPT_NOUN = [
  /\b(system|initial|original|starting|start-up|startup|hidden|secret|opening|first|developer|pre|meta|base|custom|underlying|full|entire|exact|internal|core|root|master|backend|behind-the-scenes|verbatim|raw|real|actual)[ -]?(prompt|message|instructions?|directives?|configuration|config|rules|guidelines|settings|briefing|orders|setup|persona|context)\b/,
  /\bsystem ?prompt|\bsystemprompt|\bsystem_?prompt|\bsys ?prompt|\bpre-?prompt|\bmetaprompt|<\s*system_?prompt\s*>|\bsystemmessage/,
  /\b(your|ur|yer|the bot'?s|the assistant'?s|wren'?s) (own )?(instructions?|rules|guidelines|guidance|directives?|programming|configuration|config|setup|set-up|orders|briefing|brief|guardrails|restrictions|constraints|policies|prompt|prompts|context|persona|initiali[sz]ation|system message|training instructions|operating instructions|marching orders|ground rules|script|specification|spec|definition|charter|mandate)\b/,
  /\b(the )?(text|words|message|messages|content|everything|stuff|lines?|paragraphs?|sentences?|conversation) (above|before (this|that|my (first )?message|we (started|began))|prior to (this|my)|at the (very )?(start|beginning|top))\b/,
  /\b(everything|all) (that )?(came|comes|was written|is written|appears) (before|above)\b/,
  /\b(instructions?|rules|guidelines|directives?|prompt|text|message|messages|words|orders|briefing|context)\b (that )?(you (were|have been|'ve been|got|received)|i gave you|we gave you|they gave you|was given to you|were given to you|given to you)( given| told| provided| fed| set up with)?\b/,
  /\bthe above (text|words|message|content|instructions|prompt|lines|paragraph)\b|\b(at|from) the (very )?(beginning|start|top) of (this|the|our) (conversation|chat|session|context)\b/,
  /\bwhat (instructions|rules|guidelines|directives|prompt|orders|guidance) (were|have|did) you (been )?(given|told|set|provided|assigned|get|receive)\b|\b(written|said|stated|typed|placed|put) (above|before) (this|my|the first)\b|\babove this (line|message)\b/,
  /\bwhat (were|are|was) (those|these|the|your previous|the previous|the above|the original|your original|your old) (instructions|rules|guidelines|directives|prompt)\b/,
  /\b(the )?(rules|guidelines|instructions|directives|policies|restrictions|constraints) (you|that you|which you) (follow|obey|were given|have|operate under|must follow|work by|abide by|stick to|are bound by)\b/,
  /\bwhat you (must|should|are to|may|can) not (reveal|share|say|tell|disclose|discuss)\b|\bmust not reveal\b|\b(given|told|instructed|configured) (initially|at first|originally|before (we|this|our) (started|began|chat|conversation))\b/,
  /\bwhat (were|was|have|had) you (been )?(told|given|instructed|programmed|asked|configured|briefed|trained|fed)\b/,
  /\b(i was|you were|you are|you have been|you've been|you'?re) (instructed|told|programmed|configured|briefed|asked) to\b/,
  /\bmy (instructions|system prompt|prompt|rules|guidelines|directives) (are|is|say|were)\b/,
  /\bthe (system )?prompt (is|was|says|reads)\b/,
  /\binitiali[sz]ation (string|text|prompt|message)\b/,
  /\b(not|never) (supposed|allowed|permitted|meant|able) to (tell|say|share|reveal|disclose|discuss|talk about|mention)\b/,
  /\bwhat (can'?t|cannot|mustn'?t|must not|shouldn'?t|should not|won'?t) you (tell|say|share|reveal|disclose|discuss)\b/,
  /\bwhat (are|were) you (told|instructed|programmed|configured)\b/,
  /\bhow (were|are|have) you (been )?(configured|set up|programmed|instructed|prompted|briefed)\b/,
  /\b(beginning|starting|begin|start) with ["']?you are\b/,
  /\b(repeat|print|output|recite|return|copy)\b[^\n]{0,40}["']you are\b/,
  /\bconsole\.log\(\s*(system|prompt|instructions|config)/,
  /\bprint\(\s*(system|prompt|instructions|config)/,
  /\b(what'?s|what is|tell me|show me) (in )?your (context window|memory|context)\b/,
  /\b(invite|prompt|message|instructions?|consignes?|directives?|regles?) (du |de )?(systeme|initiale?s?|d'origine|originale?s?|cachee?s?|secretes?)\b/,
  /\b(tes|vos) (consignes|instructions|regles|directives)\b|\bce qu'on (t'a|vous a) dit\b/,
  /\b(prompt|mensaje|instrucciones|indicaciones|reglas|directrices|configuracion) (del sistema|de sistema|iniciales?|originales?|ocultas?|secretas?)\b/,
  /\b(tus|sus) (instrucciones|reglas|indicaciones|directrices)\b/,
  /\bsystem ?(prompt|anweisung(en)?|nachricht|vorgaben?|befehle?)\b|\bsystemanweisung/,
  /\b(deine|ihre|die) (anweisungen|regeln|vorgaben|instruktionen|anfangsanweisungen|ursprunglichen anweisungen|richtlinien)\b/,
  /\b(anfangs|ursprungliche|geheime|versteckte)\w* (anweisungen|instruktionen)\b/,
  /\b(prompt|messaggio|istruzioni|regole|direttive) (di sistema|del sistema|iniziali?|originali?|nascoste?|segrete?)\b/,
  /\b(le tue|tue|sue|le sue) (istruzioni|regole|direttive)\b/,
  /\b(prompt|mensagem|instrucoes|regras|diretrizes) (do sistema|de sistema|iniciais|originais|ocultas|secretas)\b/,
  /\b(suas|tuas|as suas) (instrucoes|regras|diretrizes)\b/,
  /\bsysteem ?(prompt|instructies|bericht)\b|\b(je|jouw|uw) (instructies|regels|richtlijnen)\b/,
  /(系统提示|系统提示词|系统指令|系统消息|初始指令|初始提示|你的指令|你的提示词|提示词|你的规则|你的设定)/,
  /(системн\S* (промпт|инструкци|сообщени|подсказк)|твои (инструкции|правила)|ваши (инструкции|правила)|исходн\S* (инструкци|промпт))/,
  /(システムプロンプト|初期指示|あなたの指示|システムメッセージ)/,
  /(시스템 프롬프트|지시사항|시스템 메시지)/,
];

export const mentionsPrompt = (s: string) => PROMPT_NOUN.some((r) => r.test(s));

export const REVEAL = [
  /\b(show|reveal|print|output|display|repeat|recite|tell|give|share|list|dump|echo|write|type|copy|paste|leak|expose|disclose|provide|send|read|quote|spell|return|state|log|summari[sz]e|paraphrase|outline|describe|explain|translate|encode|convert|put|format|continue|complete|finish|fill in|let me see|can i see|may i see|i need|i want|need to see|access|retrieve|fetch|pull|extract|export|look up|lookup|find|get|render|emit|produce|reproduce|restate|rewrite|recall|remind me|walk me through|break down|enumerate|verify|confirm|check|see|view|know|read out|spit out|cough up|hand over)\b/,
  /\b(what'?s|what is|what are|what were|what was|whats|which are|how does|how do)\b/,
  /\b(montre|montrez|affiche|affichez|revele|revelez|dis|dites|donne|donnez|repete|repetez|ecris|ecrivez|imprime|imprimez|quelles? (est|sont)|quel est|traduis|resume)\b/,
  /\b(muestra|muestrame|muestre|revela|revele|dime|digame|dame|deme|repite|repita|escribe|escriba|imprime|cual(es)? (es|son)|traduce|resume)\b/,
  /\b(zeig\w*|gib|geben sie|nenne|nennen sie|wiederhole\w*|schreib\w*|verrat\w*|was (ist|sind|war|waren)|wie (lautet|lauten)|ubersetze)\b/,
  /\b(mostra\w*|rivela\w*|dimmi|dammi|ripeti\w*|scrivi|stampa|quali sono|qual e|traduci)\b/,
  /\b(mostre|mostra|revele|revela|diga|me de|repita|escreva|imprima|quais sao|qual e|traduza)\b/,
  /\b(toon|laat\b.*\bzien|geef|herhaal|schrijf|wat (is|zijn)|vertaal)\b/,
  /(显示|告诉|输出|打印|重复|是什么|给我|写出|展示|列出)/,
  /(покажи|выведи|скажи|повтори|напиши|какой|какие|какая|расскажи|дай)/,
  /(教えて|見せて|表示|出力|繰り返)/,
];

export const asksToReveal = (s: string) => REVEAL.some((r) => r.test(s));

// ---------------------------------------------------------------- credentials

export const SECRET_NOUNS: Array<[RegExp, 'aws' | 'db' | 'escalation' | 'all']> = [
  [/\baws\b|\bamazon (web services )?(keys?|credentials?)|\baccess[ _-]?key|\bsecret[ _-]?(access[ _-]?)?key|\bs3 (key|keys|credentials?|bucket|access)|\bakia\b|\bcloud (keys?|credentials?)|\bapi[ _-]?keys?\b|\b(archive|bucket|storage|document store) (keys?|credentials?)\b|\bkeys? (for|to) (the )?(archive|bucket|s3|storage|document store|records archive)\b/, 'aws'],
  [/\b(database|db|postgres(ql)?|sql|psql|pg)\b[^.?!\n]{0,30}\b(url|uri|connection|dsn|password|passwords|pass|pwd|credentials?|login|host|hostname|string|user ?name|user|details|access|conn|address)\b|\bconnection ?string\b|\bdsn\b|\bpostgres(ql)?:\/\/|\bdatabase\b[^.?!\n]{0,10}\b(creds|secret)/, 'db'],
  [/\bescalat\w*|\b(internal|staff|private|direct|on-?call|clinical|secret|hidden|emergency staff|staff-only|staff only) (phone|line|number|hotline|contact|extension)\b|\bstaff[- ]only (line|number)\b|\b(the|your|its|a) pin\b|\bpin (code|number)\b(?! (for|of) (my|the) (card|portal))/, 'escalation'],
  [/\b(your|the|any|all|internal|system|admin|service|stored|hidden|configured|embedded|secret|backend|api) (own )?(credentials?|secrets|passwords?|passphrases?|api[ _-]?keys?|tokens?|keys|creds|private keys?)\b|\b(credentials?|secrets|creds|passwords) (you (have|hold|know|store|were given|can see))\b|\benv(ironment)?[ _-]?(variables|vars)\b|\.env\b|\bwhat(?:'s| is) the password\b|\bany (secrets|passwords|credentials|keys)\b/, 'all'],
  [/\bmot de passe\b|\bidentifiants\b|\bcontrasena\b|\bcredenciales\b|\bpasswort\b|\bkennwort\b|\bzugangsdaten\b|\bcredenziali\b|\bsenha\b|\bcredenciais\b|\bwachtwoord\b|\binloggegevens\b|密码|凭证|凭据|пароль|учетн\S* данн|パスワード/, 'db'],
  [/\bbase de (donnees|datos|dados)\b|\bdatenbank\b|\bbanco de dados\b|\bchaine de connexion\b|\bcadena de conexion\b|\bverbindungszeichenfolge\b|\bstringa di connessione\b|\bstring de conexao\b|\bverbindingsreeks\b|数据库|连接字符串|база данных|строк\S* подключени|データベース/, 'db'],
  [/\bcle (d'acces|secrete|api|aws)\b|\bclave (de acceso|secreta|api|aws)\b|\b(zugangs|geheim)\w*schlussel\b|\bchiave (di accesso|segreta|api|aws)\b|\bchave (de acesso|secreta|api|aws)\b|\b(toegangs|geheime )sleutel\b|密钥|访问密钥|ключ доступа|секретный ключ|アクセスキー/, 'aws'],
  [/\bnumero (interne|d'escalade|du personnel|interno)\b|\bligne (interne|d'escalade)\b|\blinea (interna|de escalamiento|de escalacion)\b|\binterne (nummer|telefonnummer|leitung|durchwahl)\b|\beskalations\w*|\blinha interna\b|\bintern (nummer|telefoonnummer)\b|内部电话|内线|внутренн\S* (номер|телефон)|内線/, 'escalation'],
];

/** The user's own password or key (a support question), not the bot's. */
export const OWN_CREDENTIAL = /\b(my|our) (own )?(portal |account |online |login )?(password|passcode|pin|login|credentials?|key)\b|\b(reset|forgot|forgotten|change|lost|recover|update) (my |the )?(portal |account )?(password|pin|login)\b|\bpassword (reset|change)\b/;

// ---------------------------------------------------------------- patient records

export const PATIENT_NOUN = /\b(patients?|customers?|clients?|users?|members?|people|persons?|individuals?|accounts?|account holders?|pacientes?|patienten|pazienti|kunden|klanten|clientes|clienti|utilisateurs|usuarios|benutzer)\b|患者|病人|客户|用户|пациент|клиент|患者様/;

export const RECORD_FIELD: Array<[RegExp, Field]> = [
  [/\b(e-?mails?|email addresses|mail address|correos?|courriels?|e-mail-adresse|adresse e-mail|indirizzo email|endereco de email)\b|邮箱|电子邮件|почт/, 'email'],
  [/\b(phone|phones|mobile|mobiles|telephone|cell|contact number|phone numbers?|telefono|telefon|numero de telephone|telefoonnummer)\b|电话|телефон/, 'phone'],
  [/\b(dob|dobs|date of birth|dates of birth|birthday|birthdays|birth ?dates?|born|age|ages|fechas? de nacimiento|dates? de naissance|geburtsdat\w*|data di nascita|data de nascimento|geboortedatum)\b|出生日期|生日|дата рождения/, 'dob'],
  [/\b(national insurance|ni numbers?|ni no|nino|ssns?|social security|national id|national identity|id numbers?|identity numbers?|nhs numbers?|numero de securite sociale|sozialversicherungsnummer|codice fiscale|numero de seguro social|bsn|cpf)\b|身份证|паспорт|снилс/, 'ni'],
  [/\b(ibans?|bank details|bank accounts?|account numbers?|sort codes?|banking|payment details|bank info|financial details|card details|cuenta bancaria|compte bancaire|bankverbindung|konto|conto corrente|conta bancaria|rekeningnummer)\b|银行|банковск/, 'iban'],
  [/\b(mrns?|medical record numbers?|patient numbers?|hospital numbers?|record numbers?|patient ids?)\b/, 'mrn'],
  [/\b(names|full names|surnames|who (are|is) (your|the|some of your|all) (patients?|customers?|clients?|users?))\b/, 'name'],
];

export type Field = 'name' | 'email' | 'phone' | 'dob' | 'ni' | 'iban' | 'mrn';

export const ALL_RECORDS = /\b(all|every|each|list|list of|dump|export|table of|database of|full|entire|complete|whole|everyone'?s|everybody'?s|other|your)\b[^.?!\n]{0,30}\b(patients|customers|clients|users|members|patient records|customer records|user records|pacientes|patienten|pazienti|kunden|clientes|clienti|utilisateurs)\b|\b(patient|customer|client|user|member)s?'? (list|table|records|database|db|data|details|directory|register|files|info|information|emails|names|numbers|contacts|addresses|ibans|accounts)\b|\bwho (are|is) (your|the|some of your) (patients?|customers?|clients?|users?)\b|\btous les (patients|clients)\b|\btodos los (pacientes|clientes)\b|\balle[rn]? (patienten|kunden)\b|\btutti i (pazienti|clienti)\b|所有(患者|病人|客户|用户)|все(х)? (пациент|клиент)/;

// ---------------------------------------------------------------- answer forms

/** Phrases that describe the encoded input rather than ask for an encoded answer. */
export const DESCRIBES_INPUT = /\b(decode|decoded|decoding|decipher|read|interpret|unscramble|translate from|convert from|reverse the following|what does)\b[^.?!\n]{0,25}\b(this|the following|following|from|below|above|message|string|text|it)?\b[^.?!\n]{0,15}\b(base ?64|base ?32|base ?16|hex(adecimal)?|rot ?-?13|binary|morse|braille|atbash|leet(speak)?|pig latin|url[- ]?encod\w*|nato)\b|\b(base ?64|base ?32|base ?16|hex(adecimal)?|rot ?-?13|binary|morse|braille|atbash|url)[- ]?(encoded|decoded)? (string|text|message|payload|input|data|below|above|following)\b|\b(this|the following|here) is (in )?(base ?64|hex|rot ?-?13|binary|morse)\b|(^|\n)\s*(encoded|decoded|base ?64|base ?32|base ?16|hex|rot ?-?13|binary|morse)( (encoded|decoded))?( string| text| message)?\s*:/g;

export const FORMS: Array<[RegExp, import('./codec').Form]> = [
  [/\b(one (character|char|letter|symbol|digit|glyph) (per|on each|a|each) (line|row)|each (character|char|letter|symbol|digit)\b[^.?!\n]{0,40}\bon (its own|a (new|separate|different)|separate|new|individual) (line|row)s?|every (character|char|letter)\b[^.?!\n]{0,40}\bon (its own|a (new|separate)) line|(characters?|letters?|chars?) on (separate|individual|different|new) lines|vertically|(new ?line|line break) (between|after) (each|every) (character|letter|char)|(put|with|add) a (line break|newline) (after|between) (each|every) (character|letter|char)|un caractere par ligne|un caracter por linea|ein zeichen pro zeile|un carattere per riga)\b/, 'per-line'],
  [/\b((dash|hyphen)(es|s)? (between|after) (each|every|the|all)|separated by (dash|hyphen)(es|s)?|with (a )?(dash|hyphen)(es|s)? (between|in between)|(dash|hyphen)[- ]separated|(dash|hyphen)(es|s)? in between)\b/, 'dashed'],
  [/\b(spaces? (between|after) (each|every|the|all)( of the)? (character|char|letter|digit|symbol)s?|(separate|separated|space out|spaced out|spread out) (each |every |the |all )?(character|letter|char|digit)s?( (with|by) (a )?spaces?)?|with (a )?spaces? (between|in between)|letter by letter|character by character|char by char|spell(ed|ing)? (it |them |that |this |the \w+ |each \w+ )?out|un espace entre|espacio entre|leerzeichen zwischen)\b/, 'spaced'],
  [/\b(nato|phonetic alphabet|phonetically|alpha bravo|alfa bravo)\b/, 'nato'],
  [/\b(replace|swap|substitute|swapping|replacing) (all |the |every |each )?(of the )?vowels\b|\bwithout (the |any )?vowels\b|\bvowels (replaced|swapped|starred)\b/, 'vowels'],
  [/\bbase ?64\b|\bb64\b/, 'base64'],
  [/\bbase ?32\b/, 'base32'],
  [/\b(hex|hexadecimal|base ?16)\b/, 'hex'],
  [/\b(binary|ones and zeros|1s and 0s|bits)\b/, 'binary'],
  [/\brot ?-?13\b|\bcaesar\b/, 'rot13'],
  [/\bmorse\b/, 'morse'],
  [/\burl[- ]?encode (it|that|this|them|the answer|your answer|your reply|the result|everything)\b|\b(answer|reply|respond|output|give it|write it|return it)\b[^.?!\n]{0,30}\b(url|percent)[- ]?encod\w*/, 'url'],
  [/\b(in|into|as|using|to) (leet|l33t|1337)\s*-?(speak)?\b|\bleetspeak\b|\bleet speak\b/, 'leet'],
  [/\b(backwards?|reversed?|in reverse( order)?|reverse (order|it|that|them|the (text|answer|string|characters|letters|output))|right to left|mirror(ed)?( image)?|a l'envers|al reves|ruckwarts|al contrario|de tras para frente|achterstevoren|倒过来|反过来|задом наперед)\b/, 'reversed'],
  [/\b(all caps|all capitals|upper ?case|capital letters|block capitals|en majuscules|en mayusculas|in grossbuchstaben)\b/, 'upper'],
  [/\b(as|in|into) (a )?json\b|\bjson (format|object|string)\b/, 'json'],
];

// ---------------------------------------------------------------- small talk

export const GREETING = /^[^\p{L}\p{N}]*(hi|hello|hey|hiya|howdy|heya|good (morning|afternoon|evening|day)|greetings|yo|hallo|bonjour|salut|hola|buenos dias|buenas( tardes| noches)?|guten (tag|morgen|abend)|servus|ciao|buongiorno|ola|oi|bom dia|hoi|goedemorgen|goedendag|privet|привет|здравствуйте|你好|您好|こんにちは|안녕하세요)(?![\p{L}])/u;
export const THANKS = /\b(thanks|thank you|thx|cheers|much appreciated|merci|gracias|danke|grazie|obrigad[oa]|bedankt|спасибо|谢谢|ありがとう)\b/;
export const BYE = /\b(bye|goodbye|good bye|see you|see ya|that'?s all|au revoir|adios|tschuss|arrivederci|tchau|doei|пока|再见|さようなら)\b/;
export const WHO = /\b(who are you|what are you(?! (not|allowed|supposed|told|instructed|hiding|doing|able|going|meant|forbidden|programmed|trained))|what is your name|what'?s your name|who am i (talking|speaking) (to|with)|are you (a |an )?(bot|human|ai|robot|real person|person|machine|chatbot)|qui es-tu|quien eres|wer bist du|chi sei)\b/;
export const ABILITIES = /\b(what can you (do|help( me)? with)|how can you help|what do you (do|help with)|what (are|is) you(r)? (for|purpose|capabilities)|what (kind of|sort of) (things|questions) can|can you help( me)?\b|help me\b|i need help|i have a question)\b/;
export const HOW_ARE_YOU = /\b(how are you|how'?s it going|how do you do|how are things|ca va|que tal|wie geht'?s|come stai)\b/;
