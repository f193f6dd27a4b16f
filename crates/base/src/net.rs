//! What a URL points at. A leaf: the settings (which refuse plain http
//! off this machine) and the client (which keeps loopback off any proxy)
//! ask the same question the same way.

/// `localhost` or a loopback address.
pub fn is_loopback(url: &url::Url) -> bool {
    match url.host() {
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::is_loopback;

    #[test]
    fn loopback_is_localhost_or_a_loopback_address() {
        let yes = [
            "http://localhost:8080",
            "http://LOCALHOST",
            "http://127.0.0.1",
            "http://[::1]:1",
        ];
        let no = [
            "https://example.com",
            "http://10.0.0.1",
            "http://localhost.example.com",
        ];
        for u in yes {
            assert!(is_loopback(&url::Url::parse(u).unwrap()), "{u}");
        }
        for u in no {
            assert!(!is_loopback(&url::Url::parse(u).unwrap()), "{u}");
        }
    }
}
