import { Stack } from '@chakra-ui/react';
import {
  CAMPAIGN_MESSAGES,
  insufficientForNoBot,
  insufficientForSubmit,
  parseCampaignCoins,
  parseMemberCount,
  submitNoBotSchema,
  submitServerSchema,
} from '@shared/campaign-schemas.ts';
import { useState, type FormEvent } from 'react';
import { LuSend } from 'react-icons/lu';
import { useNavigate } from 'react-router';
import { toast } from '../../lib/toaster.tsx';
import { defaultSpend, memberCostRows, SpendAndSubmit } from './cost-summary.tsx';
import { TargetingFields, targetingOf } from './targeting-fields.tsx';
import { InviteLinkField, ServerNameField, WholeNumberField } from './form-fields.tsx';
import { useSubmitPerMember } from './use-submit-per-member.ts';
import { useFieldErrors } from '../../lib/use-field-errors.ts';
import { firstSchemaProblem } from './validate.ts';
import { useTranslation } from 'react-i18next';

export interface SubmitFormProps {
  balanceCents: number;
  /** The balance as shown to the user, e.g. "12.50". */
  balanceText: string;
  onBotMissing: (inviteUrl: string) => void;
  /** The server picked above the form (issue 31 item 3): its name fills the name field. */
  prefillName?: string;
  /** The never-expiring invite our bot made for the picked server: it fills the invite field. */
  prefillInvite?: string;
}

type Field = 'name' | 'inviteLink' | 'amount';
type Count = { ok: true; members: number } | { ok: false; message: string };

/** What differs between the two kinds paid 1 coin per member: the amount field, its rules and texts. */
const KINDS = {
  // Regular: 1 coin per member slot, at least 3; the API rounds a fractional amount down.
  regular: {
    amount: 'coinReward',
    ids: { name: 'regular-name', inviteLink: 'regular-invite', amount: 'regular-coins' },
    count: (text: string): Count => {
      const parsed = parseCampaignCoins(text);
      return parsed.ok ? { ok: true, members: parsed.coins } : parsed;
    },
    schema: submitServerSchema,
    insufficient: insufficientForSubmit,
    formKey: 'submit.regular.formLabel',
    fieldKey: 'submit.coinsToSpend',
    helperKey: 'submit.regular.coinsHelper',
    submitKey: 'submit.submitServer',
  },
  // No-bot: no bot needed, 1 coin per member, members earn 0.20 after 10 seconds.
  nobot: {
    amount: 'memberCount',
    ids: { name: 'nobot-name', inviteLink: 'nobot-invite', amount: 'nobot-members' },
    count: (text: string): Count => {
      const members = parseMemberCount(text);
      return members === null ? { ok: false, message: CAMPAIGN_MESSAGES.memberCount } : { ok: true, members };
    },
    schema: submitNoBotSchema,
    insufficient: insufficientForNoBot,
    formKey: 'submit.nobot.formLabel',
    fieldKey: 'submit.nobot.memberCount',
    helperKey: 'submit.nobot.helper',
    submitKey: 'submit.nobot.addServer',
  },
} as const;

/** The field a schema problem is shown on: the name when it names none of the form's (targeting). */
function fieldOf(problemField: string | null, amount: string): Field {
  if (problemField === amount) return 'amount';
  return problemField === 'inviteLink' ? 'inviteLink' : 'name';
}

/** A regular or no-bot campaign: the server, its invite, how many members, who may join, the cost. */
export function PerMemberForm({
  kind,
  balanceCents,
  balanceText,
  onBotMissing,
  prefillName,
  prefillInvite,
}: SubmitFormProps & { kind: keyof typeof KINDS }) {
  const { t } = useTranslation();
  const rules = KINDS[kind];
  const [name, setName] = useState(prefillName ?? '');
  const [inviteLink, setInviteLink] = useState(prefillInvite ?? '');
  const [minAge, setMinAge] = useState('');
  const [language, setLanguage] = useState('');
  // Starts at what the balance pays for (10 at most), never at more.
  const [amount, setAmount] = useState(() => String(defaultSpend(balanceCents)));
  const navigate = useNavigate();
  const submit = useSubmitPerMember(kind, {
    onBotMissing,
    // On to the new campaign on My Campaigns (highlighted, with what happens next).
    onSuccess: (campaign) => void navigate(`/campaigns?new=${encodeURIComponent(campaign.id)}`),
  });
  const fields = useFieldErrors<Field>(rules.ids);
  const count = rules.count(amount);
  const members = count.ok ? count.members : 0;
  // The cost against the balance, before Submit: an amount the balance cannot pay disables Submit.
  const unaffordable = count.ok && balanceCents < members * 100;

  /** The spec's toast, plus the message on the field, which takes focus. */
  function fail(field: Field, title: string, description: string) {
    toast({ title, description, variant: 'destructive' });
    fields.show(field, description);
  }

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    // The spec's order: amount first, then balance, then the schema's first problem.
    if (!count.ok) {
      fail('amount', t('submit.validationError'), count.message);
      return;
    }
    if (unaffordable) {
      fail('amount', t('submit.insufficientCoins'), rules.insufficient(members, balanceText));
      return;
    }
    const input = { name, inviteLink, [rules.amount]: amount, targeting: targetingOf(minAge, language) };
    const problem = firstSchemaProblem(rules.schema, input);
    if (problem) {
      fail(fieldOf(problem.field, rules.amount), t('submit.validationError'), problem.message);
      return;
    }
    fields.reset();
    submit.mutate(input);
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t(rules.formKey)}>
      <Stack gap="5">
        <ServerNameField {...fields.bind('name', name, setName)} />
        <InviteLinkField {...fields.bind('inviteLink', inviteLink, setInviteLink)} />
        <WholeNumberField
          name={rules.amount}
          label={t(rules.fieldKey)}
          {...fields.bind('amount', amount, setAmount)}
          helper={t(rules.helperKey)}
        />
        <TargetingFields
          idPrefix={kind}
          minAge={minAge}
          language={language}
          onMinAge={setMinAge}
          onLanguage={setLanguage}
        />
        <SpendAndSubmit
          rows={memberCostRows(t, members, kind)}
          balanceCents={balanceCents}
          costCents={members * 100}
          refusal={unaffordable ? rules.insufficient(members, balanceText) : null}
          pending={submit.isPending}
          loadingText={t('submit.submitting')}
        >
          <LuSend /> {t(rules.submitKey)}
        </SpendAndSubmit>
      </Stack>
    </form>
  );
}
