"""The address guard in production mode: loopback, private, link-local, shared and mapped addresses are
refused, whether written as such or behind a host name, at registration (a 400 with the sentence) and
at delivery (no request reaches them)."""
import pytest

from tournaments.webhooks import addresses

REFUSED = ["127.0.0.1", "10.1.2.3", "172.16.5.4", "192.168.1.5", "169.254.169.254", "100.64.1.1", "0.0.0.0",
           "::1", "fe80::1", "fc00::1", "::ffff:10.0.0.1", "::ffff:127.0.0.1", "224.0.0.1", "240.0.0.1"]


@pytest.mark.parametrize("address", REFUSED)
def test_private_and_local_addresses_are_not_public(address):
    assert not addresses.is_public(address)


@pytest.mark.parametrize("address", ["93.184.216.34", "1.1.1.1", "2606:4700:4700::1111"])
def test_internet_addresses_are_public(address):
    assert addresses.is_public(address)


@pytest.mark.parametrize("host", ["127.0.0.1", "10.1.2.3", "169.254.169.254", "[::1]", "localhost",
                                  "api.localhost"])
def test_urls_naming_a_private_address_are_refused(settings, host):
    settings.OPP_WEBHOOKS_ALLOW_PRIVATE = False
    with pytest.raises(addresses.Refused, match="public internet addresses only"):
        addresses.check_url(f"https://{host}/hook")


def test_a_host_name_resolving_to_a_private_address_is_refused(settings, monkeypatch):
    settings.OPP_WEBHOOKS_ALLOW_PRIVATE = False
    monkeypatch.setattr(addresses, "resolve", lambda host, port: {"inside.example": ["192.168.1.5"],
                                                                  "mixed.example": ["93.184.216.34", "10.0.0.7"],
                                                                  "fine.example": ["93.184.216.34"]}[host])
    with pytest.raises(addresses.Refused, match="inside.example is 192.168.1.5"):
        addresses.check_url("https://inside.example/hook")
    with pytest.raises(addresses.Refused, match="10.0.0.7"):  # one private address among public ones
        addresses.check_url("https://mixed.example/hook")
    assert addresses.check_url("https://fine.example/hook").host == "fine.example"


def test_only_https_unless_the_test_setting_allows_http(settings):
    settings.OPP_WEBHOOKS_ALLOW_HTTP = False
    with pytest.raises(addresses.Refused, match="https://"):
        addresses.target_of("http://hooks.example/in")
    settings.OPP_WEBHOOKS_ALLOW_HTTP = True
    assert addresses.target_of("http://hooks.example/in?x=1").path == "/in?x=1"


@pytest.mark.parametrize("url, sentence", [
    ("ftp://hooks.example/", "https://"), ("https:///nohost", "no host"),
    ("https://user:pw@hooks.example/", "user name or password"), ("https://hooks.example:99999/", "cannot be read"),
])
def test_malformed_urls_are_refused_with_a_sentence(url, sentence):
    with pytest.raises(addresses.Refused, match=sentence):
        addresses.target_of(url)


def test_a_delivery_to_a_local_receiver_in_production_mode_never_reaches_it(production_mode, receiver):
    found = receiver()
    with pytest.raises(addresses.Refused, match="127.0.0.1"):
        addresses.post(found.url, b"{}", {})
    assert found.requests == []


def test_the_connection_goes_to_the_checked_address_not_to_a_second_answer(production_mode, receiver,
                                                                             monkeypatch):
    """DNS rebinding: the name resolves to a public address for the check and to 127.0.0.1 afterwards;
    the request goes to the address checked (here standing in for the public host: the local receiver)."""
    public_host = receiver()
    answers = iter([["93.184.216.34"], ["127.0.0.1"]])
    monkeypatch.setattr(addresses, "resolve", lambda host, port: next(answers))
    connected = []

    def connect(address, port, timeout):
        connected.append(address)
        return addresses.socket.create_connection(("127.0.0.1", public_host.port), timeout)

    monkeypatch.setattr(addresses, "open_connection", connect)
    answer = addresses.post(f"http://rebinding.example:{public_host.port}/hook", b"{}", {})
    assert answer.status == 200 and connected == ["93.184.216.34"]
    assert public_host.requests[0]["headers"]["Host"] == f"rebinding.example:{public_host.port}"
