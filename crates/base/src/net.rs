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

/// Whether two base URLs name the same server: the same scheme, host,
/// port and path, in any case and with or without a trailing `/`. Two on
/// this machine are the same whatever their ports (the demo server and a
/// port-forward take a new port each run). Text that is no URL is
/// compared as text.
pub fn same_server(a: &str, b: &str) -> bool {
    let trimmed = |s: &str| s.trim().trim_end_matches('/').to_ascii_lowercase();
    match (url::Url::parse(a.trim()), url::Url::parse(b.trim())) {
        (Ok(x), Ok(y)) if is_loopback(&x) && is_loopback(&y) => true,
        (Ok(x), Ok(y)) => {
            x.scheme() == y.scheme()
                && x.host() == y.host()
                && x.port_or_known_default() == y.port_or_known_default()
                && x.path().trim_end_matches('/') == y.path().trim_end_matches('/')
        }
        _ => trimmed(a) == trimmed(b),
    }
}

#[cfg(test)]
mod tests {
    use super::{is_loopback, same_server};

    #[test]
    fn the_same_server_is_the_same_url_or_two_on_this_machine() {
        let same = [
            (
                "https://findings.example.com",
                "https://FINDINGS.example.com/",
            ),
            (
                "https://findings.example.com:443/x",
                "https://findings.example.com/x/",
            ),
            ("http://127.0.0.1:18791", "http://localhost:40000"),
        ];
        let other = [
            (
                "https://findings.example.com",
                "https://staging.example.com",
            ),
            (
                "https://findings.example.com",
                "http://findings.example.com",
            ),
            (
                "https://findings.example.com:8443",
                "https://findings.example.com",
            ),
            (
                "https://findings.example.com/eu",
                "https://findings.example.com/us",
            ),
            ("http://127.0.0.1:1", "https://findings.example.com"),
        ];
        for (a, b) in same {
            assert!(same_server(a, b), "{a} {b}");
        }
        for (a, b) in other {
            assert!(!same_server(a, b), "{a} {b}");
        }
    }

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
