#!/usr/bin/perl
# Harvests an OAI-PMH repository with Debian's HTTP::OAI (libhttp-oai-perl), a client that is not
# ours: ListRecords in oai_dc (the library follows the resumption tokens itself) and ListIdentifiers
# (page by page with the tokens the library reads). Prints one line per record and header:
#   <verb> <identifier> <datestamp> <deleted|live> [<first dc:title>]
# Dies (exit status 255) on an OAI-PMH or HTTP error.
use strict;
use warnings;
use HTTP::OAI;
use HTTP::OAI::Metadata::OAI_DC;

binmode(STDOUT, ':encoding(UTF-8)');
my $base_url = shift or die "usage: harvest.pl BASE_URL\n";

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
