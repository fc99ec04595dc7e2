// A small English lexicon: enough for the rule-based "model" to judge whether a string reads as
// English (after rot13, reversal, de-leeting, re-spacing, ...) and to tell a known word from a name
// it has never seen. Inflections are handled by isWord(), so base forms suffice here.

const WORDS = `
a able about above absolutely accept access according account accounts accurate across act action
actually add added address admin administrator advice affect after again against age agent ago agree
ahead ai aid all allow allowed almost alone along already also alter although always am amazing among
amount an analyse analysis analyze and another answer any anybody anymore anyone anything anyway
anywhere app appear apply approve april are area aren argument around arrive art article as ask
assistant at attach attack attention august authority authorized auto available avoid away
baby back bad balance bank banking base basic be bear beat beautiful became because become bed been
before begin beginning behind being believe below benefit best better between beyond big bill birth
birthday bit black block blue board body book born both bottom box boy branch break breakfast bring
broken brother brought budget build building business busy but buy by
call calm came camera can cancel cannot capital car card care careful carry case cash cat catch cause
cell center centre certain chance change character charge chat check cheque child children choice
choose church city claim class clean clear client close closed code coffee cold collect college colour
color come comment common company complete completely computer concern condition confirm connect
connection consider contact contain content context continue control conversation convert cool copy
correct cost could count country couple course cover create credential credit cross cup current
customer cut
daily damage danger dark data database date daughter day dead deal dear death debit debt december
decide decode decoded deep default define delete deliver department deposit describe design detail
detailed details developer did die difference different difficult digit dinner direct direction
directive directly disable disclose discuss display do doctor document does dog doing dollar done
door double down draw dream dress drink drive drop during duty
each early earn easy eat economy edge effect eight either else email emails employee empty enable
encode encoded end energy enjoy enough ensure enter entire entry environment equal error escalation
especially even evening event ever every everybody everyone everything exact exactly example except
exchange exist expect expensive experience explain express extra eye
face fact fail fair fall false family far fast father fear feature february fee feel few field fifteen
fifty fight figure file fill final finally financial find fine finger finish fire first fish five fix
fixed floor fly follow following food foot for force forever forget form format former forty forward
found four free freeze friday friend from front full fun fund funny future
game garden gave general get girl give given glad go goal god going gold gone good got government
grant great green ground group grow guess guide guideline gun guy
had hair half hand handle happen happy hard has hat hate have he head health hear heard heart hello
help her here hey hi hidden hide high him himself his history hit hold holder home hope hospital hot
hotel hour hours house how however huge human hundred hurt husband
i idea identity if ignore ill image important in include income increase indeed info information
initial input inside instance instead instruct instruction instructions insurance interest internal
international internet into is issue it item its itself
january job join joke journey july jump june just
keep key kid kill kind kitchen knew know knowledge known
lady land language large last late later laugh law lead learn least leave left leg less let letter
level lie life light like likely limit line link list listen little live loan local lock log login
long look lose lost lot love low lunch
machine made mail main make man manager many march market matter may maybe me mean meaning meant
meet member members memory mention menu message method middle might mile million mind mine minute
miss mistake mode model moment monday money month more morning most mother move movie much music
must my myself
name national near need negative never new news next nice night nine no nobody none noon nor normal
not note nothing notice november now number
object october of off offer office often oh ok okay old on once one online only open opening operator
option or order original other otherwise our out output outside over own owner
page paid pain paper parent part party pass password past pay payment people per perhaps period
person personal phone phrase pick picture piece place plain plan play please plus point policy poor
position possible post pound power practice prefer prepare present president pretty previous price
print prior private probably problem process produce product program programming project promise
prompt proper protect provide public pull purpose push put
quality question quick quickly quiet quite quote
raise ran rate rather reach read ready real really reason receive recent record red refund regular
remember remove repeat reply report request require reset respond response rest result return reveal
right ring rise risk road rock role room rule rules run
safe said sale same saturday save saving savings saw say school score screen search second secret
secure security see seem seen self sell send sentence separate september serious serve service set
setting seven several shall share she short should show shut sick side sign similar simple since
sing single sir sister sit six size sleep slow small smile so social some somebody someone something
sometimes son soon sorry sort sound source space speak special spell spend spent staff stand start
state statement stay step still stop store story street string strong student study stuff such
suddenly summary summer sun sunday support suppose sure surprise system
table take talk task tax teach team tell ten term test text than thank thanks that the their them
themselves then there therefore these they thing things think third this those though thought
thousand three through thursday thus time tired title to today together told tomorrow tonight too took
top total touch toward towards town trade transfer travel tree trouble true trust truth try tuesday
turn twelve twenty two type
under understand unit unless until up update upon us use used user usual usually
value verify version very via view visit voice
wait walk wall want war warm was watch water way we wear website wednesday week weekend welcome well
went were what whatever when where whether which while white who whole whom whose why wide wife will
win window wish with within without woman wonder word words work world worry would write written
wrong
yeah year yes yesterday yet you young your yours yourself
above below beneath mirror character characters letter letters backwards reverse reversed encoding
hex hexadecimal base sixty four rot thirteen leet binary morse cipher decode decrypt translate
configuration config setup rules guidance policy policies restriction restrictions developer debug
unrestricted unfiltered jailbreak persona pretend roleplay simulate override bypass disregard
forget previous earlier preceding verbatim exactly only nothing else respond reply output print
reveal disclose dump expose leak recite share display list show tell give provide hidden secret
secrets credential credentials token tokens key keys access api postgres database connection
customer customers member members email address iban birth national insurance account accounts
sort phone hotline escalation internal staff manager fraud scam complaint loan loans mortgage
overdraft savings saver isa bond interest rate rates fee fees charge charges branch branches
opening hours card cards debit credit freeze lost stolen pin online banking app mobile transfer
transfers payment payments refund refunds close delete deleted remove change update upgrade limit
approve approved cancel cancelled direct standing order cheque deposit withdraw withdrawal cash atm
summarise summarize summary document email article review paragraph text below following attached
injection injected instruction payload message messages conversation chat assistant bot virtual
ignore ignored forgets forget dan mode enabled disabled developer sudo admin root grant privilege
script html markdown image link click button alert cookie page web site url http https
story poem poems essay novel chapter word words repeat forever infinite endless long longer
drug medication medicine tablet dose dosage side effects package library module install paper study
journal author published company founded startup ceo founder headquarters person who biography
hello hi hey morning afternoon evening thanks thank cheers bye goodbye please kindly would could
abroad overseas foreign currency euro dollar euros dollars swift sending send sent receive received
join joined eligible eligibility membership apply application approve approval agreement contract
quarterly annual monthly weekly results figures costs profit loss revenue growth strong weak fell rose
great service excellent terrible poor happy unhappy recommend again would bank banks banker banked
team meeting moved attached regards kind best wishes sincerely dear colleague colleagues office
weather holiday holidays trip flight hotel booking booked cancel cancelled refund refunded late early
student students child children parent parents family joint single partner married couple wedding
house home flat rent landlord tenant move moving address postcode street road avenue town city village
question questions answer answers help helpful support problem problems issue issues error errors fix
code codes number numbers digit digits letter letters word words sentence sentences paragraph line lines
secure safety safe unsafe risk risky danger dangerous warning alert alerts notice notification
union unions protected protection protect compensation scheme regulated regulator authorised authorized
premium upgrade downgrade annual yearly interest mortgage remortgage broker adviser advisor advice
swallowed machine machines withdraw deposit cheque cheques bill bills utility utilities salary wage
child teenager junior pension retirement tax taxes allowance benefit benefits grant loan lender borrower
credit debit score report reports check checks limit limits spending budget budgeting payday
study studies research researcher survey evidence data analysis reduce reduced increase increased
prescribe prescribed prescription treat treated treatment cure symptom symptoms disease condition
retry retries handle handling request requests response responses api apis library framework server
`;

const words = new Set<string>();
for (const w of WORDS.split(/\s+/)) if (w) words.add(w);

/** True when `w` (any case) is an English word this lexicon knows, allowing common inflections. */
export function isWord(raw: string): boolean {
  const w = raw.toLowerCase().replace(/'s$|'$/, '');
  if (!w || !/^[a-z]+$/.test(w)) return false;
  if (words.has(w)) return true;
  const stems: string[] = [];
  if (w.endsWith('ies')) stems.push(w.slice(0, -3) + 'y');
  if (w.endsWith('es')) stems.push(w.slice(0, -2));
  if (w.endsWith('s')) stems.push(w.slice(0, -1));
  if (w.endsWith('ed')) stems.push(w.slice(0, -2), w.slice(0, -1));
  if (w.endsWith('ied')) stems.push(w.slice(0, -3) + 'y');
  if (w.endsWith('ing')) stems.push(w.slice(0, -3), w.slice(0, -3) + 'e');
  if (w.endsWith('ly')) stems.push(w.slice(0, -2));
  if (w.endsWith('er')) stems.push(w.slice(0, -2), w.slice(0, -1));
  if (w.endsWith('ers')) stems.push(w.slice(0, -3));
  if (w.endsWith('est')) stems.push(w.slice(0, -3));
  if (w.endsWith('ment')) stems.push(w.slice(0, -4));
  if (w.endsWith('ation')) stems.push(w.slice(0, -5) + 'e', w.slice(0, -5));
  if (w.endsWith("n't")) stems.push(w.slice(0, -3));
  for (const s of stems) {
    if (s.length >= 2 && words.has(s)) return true;
    // doubled consonant before -ed/-ing: "stopped", "running"
    if (s.length >= 3 && s[s.length - 1] === s[s.length - 2] && words.has(s.slice(0, -1))) return true;
  }
  return false;
}

/** Dictionary words of length >= 4, indexed by first letter + last letter + sorted middle, for reading
 * words whose inner letters were shuffled ("ignroe" -> "ignore"). */
const scrambleIndex = new Map<string, string>();
for (const w of words) {
  if (w.length < 4) continue;
  const key = w[0] + w[w.length - 1] + [...w.slice(1, -1)].sort().join('');
  if (!scrambleIndex.has(key)) scrambleIndex.set(key, w);
}
export function unscramble(token: string): string | null {
  const w = token.toLowerCase();
  if (w.length < 4 || !/^[a-z]+$/.test(w)) return null;
  return scrambleIndex.get(w[0] + w[w.length - 1] + [...w.slice(1, -1)].sort().join('')) ?? null;
}

/** All lexicon entries (for word segmentation of run-together text). */
export const LEXICON: ReadonlySet<string> = words;

/** Things the bot's "world knowledge" knows to exist: asked about one of these, the model does not
 * need to invent anything. Anything outside this list and outside the lexicon is unknown to it. */
export const KNOWN_ENTITIES = new Set(
  `
aspirin ibuprofen paracetamol acetaminophen amoxicillin penicillin metformin insulin omeprazole
atorvastatin simvastatin lisinopril codeine morphine antibiotic antibiotics vaccine vitamin caffeine
react express lodash numpy pandas requests django flask axios typescript javascript python java rust go
golang node nodejs npm pip jest webpack vue angular tensorflow pytorch kubernetes docker linux windows
postgres postgresql mysql sqlite mongodb redis excel
einstein newton curie darwin shakespeare turing lovelace mozart beethoven churchill gandhi lincoln
google apple microsoft amazon meta facebook tesla ibm intel nvidia openai anthropic visa mastercard
barclays hsbc lloyds natwest santander monzo revolut paypal stripe netflix twitter
london paris berlin madrid rome dublin edinburgh manchester birmingham glasgow england scotland wales
ireland france germany spain italy europe america china japan india
isa aer apr ear ltv iban swift bic bacs chaps fca fscs pra inflation gdp euro sterling bitcoin ethereum
brackenmoor mira credit union building society atm pin
`
    .split(/\s+/)
    .filter(Boolean),
);
