#!/usr/bin/perl
# Harvests an OAI-PMH repository with Debian's HTTP::OAI (libhttp-oai-perl), a client that is not
# ours: ListRecords in oai_dc (the library follows the resumption tokens itself) and ListIdentifiers
# (page by page with the tokens the library reads). Prints one line per record and header:
#   <verb> <identifier> <datestamp> <deleted|live> [<first dc:title>]
# Then ListRecords in each other metadata prefix given after the base URL, one line per record:
#   ListRecords:<prefix> <identifier> <datestamp> <deleted|live> [<namespace> <root element> <first text of the element named>]
# where the element named is DataCite's first title, ISO 19139's fileIdentifier (the record's id) or
# DIF's Entry_Title, read through the DOM the library parsed, its white space folded.
# Dies (exit status 255) on an OAI-PMH or HTTP error.
use strict;
use warnings;
use HTTP::OAI;
use HTTP::OAI::Metadata::OAI_DC;

binmode(STDOUT, ':encoding(UTF-8)');
my $base_url = shift or die "usage: harvest.pl BASE_URL [PREFIX...]\n";
my @prefixes = @ARGV;
my %title_of = (datacite => 'title', oai_datacite => 'title', iso19139 => 'gmd:fileIdentifier', dif10 => 'Entry_Title');

my $harvester = HTTP::OAI::Harvester->new(baseURL => $base_url);

my $records = $harvester->ListRecords(
  metadataPrefix => 'oai_dc',
  handlers => { metadata => 'HTTP::OAI::Metadata::OAI_DC' },
  onRecord => sub {
    my $record = shift;
    my $title = '';
    if (!$record->is_deleted && $record->metadata) {
      my $titles = $record->metadata->dc->{title} || [];
      $title = $titles->[0] // '';
    }
    printf "ListRecords %s %s %s %s\n", $record->identifier, $record->datestamp, ($record->is_deleted ? 'deleted' : 'live'), $title;
  },
);
die 'ListRecords: ' . $records->message . "\n" if $records->is_error;

# ListIdentifiers page by page: the library's automatic resumption keeps only the last page for
# `next`, so this list follows the tokens the library read from each reply itself.
my $paged = HTTP::OAI::Harvester->new(baseURL => $base_url, resume => 0);
my $headers = $paged->ListIdentifiers(metadataPrefix => 'oai_dc');
for (;;) {
  die 'ListIdentifiers: ' . $headers->message . "\n" if $headers->is_error;
  while (my $header = $headers->next) {
    printf "ListIdentifiers %s %s %s\n", $header->identifier, $header->datestamp, ($header->is_deleted ? 'deleted' : 'live');
  }
  my $token = $headers->resumptionToken;
  last unless $token && $token->resumptionToken;
  $headers = $paged->ListIdentifiers(resumptionToken => $token->resumptionToken);
}

for my $prefix (@prefixes) {
  my $list = $harvester->ListRecords(
    metadataPrefix => $prefix,
    onRecord => sub {
      my $record = shift;
      my $facts = '';
      if (!$record->is_deleted && $record->metadata) {
        # The library's DOM of the record's metadata: a document or a fragment; the format's root is
        # the first element in it that is not OAI-PMH's own <metadata>.
        my $dom = $record->metadata->dom;
        my ($format) = grep { $_->nodeType == 1 } ($dom->can('documentElement') ? ($dom->documentElement) : $dom->childNodes);
        ($format) = grep { $_->nodeType == 1 } $format->childNodes if $format->localName eq 'metadata';
        my ($title) = $format->getElementsByTagName($title_of{$prefix} // 'title');
        my $text = $title ? $title->textContent : '';
        $text =~ s/\s+/ /g;
        $text =~ s/^ | $//g;
        $facts = join ' ', $format->namespaceURI, $format->localName, $text;
      }
      printf "ListRecords:%s %s %s %s %s\n", $prefix, $record->identifier, $record->datestamp, ($record->is_deleted ? 'deleted' : 'live'), $facts;
    },
  );
  die "ListRecords $prefix: " . $list->message . "\n" if $list->is_error;
}
