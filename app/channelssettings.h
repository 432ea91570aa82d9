#pragma once

#include "messaging/channels/channelconfig.h"
#include "ui/settings/channelspage.h"

#include <functional>
#include <memory>

class AppSettings;
class ChannelRegistry;
class MainWindow;
class SecretStore;

// Settings > Channels in the desktop: the page's values from the running configuration (secrets
// included, shown masked), its status from the ChannelRegistry, "Test connection" through a
// temporary connector of the channel built from the form (GUI thread), and Save writing the
// non-secret keys to DATA/liaison.ini and the secrets to the secret store (keys named like the
// settings, "channels/telegram/botToken"). serverBaseUrl: the public URL the providers call
// (media/publicBaseUrl, else the API server's own), asked when the page is made.
void addChannelsPage(MainWindow &window, AppSettings &settings, SecretStore &secrets, const ChannelsConfig &current,
                     std::shared_ptr<ChannelRegistry> registry, std::function<QString()> serverBaseUrl);

namespace ChannelsSettings {
// The form's values of a configuration.
ChannelsPage::Values values(const ChannelsConfig &config);
// A configuration from the form's values over the defaults; false (with why) for a bad value.
bool config(const ChannelsPage::Values &values, ChannelsConfig *config, QString *why);
// Probes `channel` with a temporary connector made from the values (timeout in seconds).
void probe(const QString &channel, const ChannelsPage::Values &values, int timeoutSeconds,
           ChannelsPage::ProbeDone done);
// Writes the values: non-secrets to the ini file (empty: removed), secrets to the store.
bool save(const ChannelsPage::Values &values, const QString &iniFile, SecretStore &secrets, QString *error);
} // namespace ChannelsSettings
